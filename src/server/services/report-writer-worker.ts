/**
 * The worker thread of `report-writer-thread.ts`: one report file, written by the same writers as
 * in the backend's own thread (report-writers.ts), batch by batch as the job hands them over.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { FromWriterThread, ToWriterThread, WriterThreadInit } from './report-writer-thread.js';
import { openWriter } from './report-writers.js';

const port = parentPort;
if (!port) throw new Error('report-writer-worker runs as a worker thread (report-writer-thread.ts starts it)');
const send = (message: FromWriterThread) => port.postMessage(message);
const failed = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) });
};

const { format, path, heading, columns } = workerData as WriterThreadInit;
try {
  const writer = await openWriter(format, path, heading, columns);
  let stopped = false;
  port.on('message', (message: ToWriterThread) => {
    if (stopped) return;
    try {
      if (message.type === 'lines') {
        writer.write(message.lines);
        send({ type: 'written' });
        return;
      }
      stopped = true;
      writer.finish().then((sizeBytes) => send({ type: 'finished', sizeBytes }), failed);
    } catch (error) {
      stopped = true;
      failed(error);
    }
  });
  send({ type: 'open' });
} catch (error) {
  failed(error);
}
