import { partSchema } from '@motoparts/contracts';
import { z } from 'zod';
import { idParams } from '../http/validate';

/** `/parts/:id`, `/restockQty/:id`, …: the part's id. */
export const partIdParams = idParams('part');

/** A part as the API answers it, named `Part` in the API document. */
export const PartSchema = partSchema.meta({ id: 'Part' });

export { deletedPartSchema } from '@motoparts/contracts';

/** POST /parts answer. */
export const createdPartSchema = z.object({ success: z.literal(true), part: PartSchema });
