import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../../src/server/db/client.js';

const sharedBuffers = async (config: Parameters<typeof openDatabase>[0]) => {
  const database = await openDatabase(config);
  try {
    const [row] = await queryRows<{ shared_buffers: string }>(database.db, sql`show shared_buffers`);
    // The other start settings PGlite needs stay in force beside it.
    const [path] = await queryRows<{ search_path: string }>(database.db, sql`show search_path`);
    return [row?.shared_buffers, path?.search_path];
  } finally {
    await database.close();
  }
};

describe('PGlite start settings', () => {
  it('sets shared_buffers when asked, and keeps PostgreSQL\'s own otherwise', async () => {
    expect(await sharedBuffers({ engine: 'pglite', sharedBuffersMb: 16 })).toEqual(['16MB', 'public']);
    expect(await sharedBuffers({ engine: 'pglite' })).toEqual(['128MB', 'public']);
  });
});
