import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../../src/server/db/client.js';
import { testBookCopy } from '../helpers/backend.js';

/** shared_buffers and search_path of a copy of the test book opened with `sharedBuffersMb` (or without it). */
const startSettings = async (sharedBuffersMb: number | undefined) => {
  // A copy opens in a fraction of the time a fresh database takes to migrate, and the setting is the start's, not the book's.
  const copy = testBookCopy();
  const config = { ...copy.config };
  delete config.sharedBuffersMb;
  const database = await openDatabase({ ...config, ...(sharedBuffersMb !== undefined && { sharedBuffersMb }) });
  try {
    const [row] = await queryRows<{ shared_buffers: string }>(database.db, sql`show shared_buffers`);
    // The other start settings PGlite needs stay in force beside it.
    const [path] = await queryRows<{ search_path: string }>(database.db, sql`show search_path`);
    return [row?.shared_buffers, path?.search_path];
  } finally {
    await database.close();
    copy.remove();
  }
};

describe('PGlite start settings', () => {
  it('sets shared_buffers when asked, and keeps PostgreSQL\'s own otherwise', async () => {
    expect(await startSettings(16)).toEqual(['16MB', 'public']);
    expect(await startSettings(24)).toEqual(['24MB', 'public']);
    expect(await startSettings(undefined)).toEqual(['128MB', 'public']);
  });
});
