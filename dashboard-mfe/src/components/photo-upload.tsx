import { useId, useState, type ChangeEvent } from 'react';
import { MAX_UPLOAD_IMAGE_BYTES, UPLOAD_IMAGE_TYPES } from '@motoparts/contracts';
import { assetUrl, errorMessage, errorStatus, thumbnailUrl } from '@motoparts/state';
import { useUploadPhotoMutation } from '../lib/photos-api';

const MB = MAX_UPLOAD_IMAGE_BYTES / 1024 / 1024;

/** What an upload refused by the API means for the person choosing the file. */
function uploadError(err: unknown): string {
  switch (errorStatus(err)) {
    case 413:
      return `This photo is larger than ${MB} MB. Choose a smaller one.`;
    case 415:
      return 'This file is not a JPEG, PNG or WebP photo. Choose another one.';
    case 429:
      return errorMessage(err, 'Too many photos uploaded in a short time. Try again later.');
    case undefined:
      return 'The photo could not be uploaded: the shop could not be reached. Please try again.';
    default:
      return errorMessage(err, 'The photo could not be uploaded. Please try again.');
  }
}

/**
 * An upload beside a photo URL field: the chosen file goes to POST /images and the field is filled
 * with the address the API hosts it at; a preview shows the photo the field holds when it is one
 * of the shop's own. The URL field itself stays as it is.
 */
export function PhotoUpload({
  value,
  onUploaded,
  idPrefix,
}: {
  /** The URL field's current value. */
  value: string;
  onUploaded: (url: string) => void;
  idPrefix: string;
}) {
  const [upload, { isLoading }] = useUploadPhotoMutation();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const id = `${idPrefix}-photo-file`;
  const statusId = useId();

  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    setError(null);
    setDone(null);
    if (!file) return;
    // Checked here first so a wrong file says so at once; the API checks the bytes again.
    if (!(UPLOAD_IMAGE_TYPES as readonly string[]).includes(file.type)) {
      setError('This file is not a JPEG, PNG or WebP photo. Choose another one.');
      input.value = '';
      return;
    }
    if (file.size > MAX_UPLOAD_IMAGE_BYTES) {
      setError(`This photo is larger than ${MB} MB. Choose a smaller one.`);
      input.value = '';
      return;
    }
    try {
      const hosted = await upload(file).unwrap();
      onUploaded(hosted.url);
      setDone(`Photo uploaded (${hosted.width} × ${hosted.height} px).`);
    } catch (err) {
      setError(uploadError(err));
    } finally {
      input.value = '';
    }
  };

  // Only the shop's own photos are previewed: the page's policy loads images from nowhere else.
  const preview = value.startsWith('/') && !value.startsWith('//') ? value : null;
  return (
    <div className="form-field dash-photo-upload">
      <label htmlFor={id}>Upload a photo</label>
      <span className="dash-hint" id={`${id}-hint`}>
        JPEG, PNG or WebP, at most {MB} MB. It fills in the photo URL.
      </span>
      <input
        id={id}
        type="file"
        accept={UPLOAD_IMAGE_TYPES.join(',')}
        disabled={isLoading}
        aria-describedby={`${id}-hint ${statusId}`}
        aria-invalid={error ? true : undefined}
        onChange={(e) => void onChange(e)}
      />
      <p id={statusId} className={error ? 'field-error' : 'dash-hint'} role="status" aria-live="polite">
        {isLoading ? 'Uploading the photo...' : (error ?? done ?? '')}
      </p>
      {preview && (
        <img
          className="dash-photo-preview"
          src={assetUrl(thumbnailUrl(preview))}
          alt="Photo preview"
          width={160}
          height={120}
          data-testid="photo-preview"
        />
      )}
    </div>
  );
}
