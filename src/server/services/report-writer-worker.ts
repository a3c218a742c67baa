/**
 * The worker thread of `report-writer-thread.ts`: report files, one at a time, written by the same
 * writers as in the backend's own thread (report-writers.ts), batch by batch as the job hands them
 * over. After a file is finished the thread waits for the next one; after a failure it is stopped.
 */
import { parentPort } from 'node:worker_threads';
import type { FromWriterThread, ToWriterThread } from './report-writer-thread.js';
import { type ReportWriter, openWriter } from './report-writers.js';

const port = parentPort;
if (!port) throw new Error('report-writer-worker runs as a worker thread (report-writer-thread.ts starts it)');
const send = (message: FromWriterThread) => port.postMessage(message);

let writer: ReportWriter | null = null;
// Messages are taken one at a time, in order: a batch is never written before its file is open.
let queue = Promise.resolve();

async function take(message: ToWriterThread): Promise<void> {
  try {
    switch (message.type) {
      case 'open':
        writer = await openWriter(message.init.format, message.init.path, message.init.heading, message.init.columns);
        send({ type: 'open' });
        return;
      case 'lines':
        if (!writer) throw new Error('a batch came with no file open');
        writer.write(message.lines);
        send({ type: 'written' });
        return;
      case 'finish': {
        if (!writer) throw new Error('a finish came with no file open');
        const done = writer;
        writer = null;
        send({ type: 'finished', sizeBytes: await done.finish() });
        return;
      }
    }
  } catch (error) {
    writer = null;
    const code = (error as { code?: unknown } | null)?.code;
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) });
  }
}

port.on('message', (message: ToWriterThread) => {
  queue = queue.then(() => take(message));
});
send({ type: 'ready' });
