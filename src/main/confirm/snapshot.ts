import { z } from 'zod';

/**
 * The state a destructive tool's preview showed and its confirmed write must still find (a
 * limit's value, a take), with whose it is for the audit log: flat JSON, as the nonce store
 * freezes it and the audit log records it as `before`.
 */
export const previewSnapshotSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type PreviewSnapshot = Readonly<z.infer<typeof previewSnapshotSchema>>;
