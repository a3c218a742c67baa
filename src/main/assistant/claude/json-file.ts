import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';

/**
 * A small JSON file main keeps (settings, usage): read through its schema — a missing or damaged
 * file reads as `fallback`, so a hand-edited file can never put a bad value in — and written
 * whole through a temporary file, one write after another, so a crash leaves the old or the new
 * file and never half of one.
 */
export class JsonFile<S extends z.ZodType> {
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly file: string, private readonly schema: S, private readonly fallback: () => z.output<S>) {}

  async read(): Promise<z.output<S>> {
    await this.writes;
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return this.fallback();
    }
    try {
      const parsed = this.schema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : this.fallback();
    } catch {
      return this.fallback();
    }
  }

  /** Reads, changes and writes as one step among this file's writes. */
  update(change: (current: z.output<S>) => z.output<S>): Promise<z.output<S>> {
    const next = this.writes.then(async () => {
      const value = this.schema.parse(change(await this.readNow()));
      await mkdir(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.tmp`;
      await writeFile(tmp, JSON.stringify(value), { encoding: 'utf8', mode: 0o600 });
      await rename(tmp, this.file);
      return value;
    });
    this.writes = next.catch(() => undefined);
    return next;
  }

  private async readNow(): Promise<z.output<S>> {
    try {
      const parsed = this.schema.safeParse(JSON.parse(await readFile(this.file, 'utf8')));
      return parsed.success ? parsed.data : this.fallback();
    } catch {
      return this.fallback();
    }
  }
}
