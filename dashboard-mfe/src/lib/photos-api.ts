import type { HostedImage } from '@motoparts/contracts';
import { baseApi } from '@motoparts/state';

/** Photo uploads (Add Product, Edit, Add Review): the file's bytes as the body, its type as Content-Type. */
export const photosApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    uploadPhoto: build.mutation<HostedImage, File>({
      query: (file) => ({
        url: '/images',
        method: 'POST',
        body: file,
        headers: { 'content-type': file.type },
      }),
    }),
  }),
});

export const { useUploadPhotoMutation } = photosApi;
