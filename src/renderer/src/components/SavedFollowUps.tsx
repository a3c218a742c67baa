import type { useSaveFile } from '../lib/save-file';

/** Once the desktop app has saved a file: where, and Show in folder and Open; or why saving failed. */
export function SavedFollowUps({ file, testId }: { file: ReturnType<typeof useSaveFile>; testId: string }) {
  return (
    <>
      {file.saved && (
        <>
          <span className="muted" data-testid={`${testId}-saved`}>Saved as {file.saved.fileName}</span>
          <button type="button" data-testid={`${testId}-reveal`} onClick={file.reveal}>Show in folder</button>
          <button type="button" data-testid={`${testId}-open`} onClick={file.open}>Open</button>
        </>
      )}
      {file.error && <span className="error" role="alert" data-testid={`${testId}-save-error`}>{file.error}</span>}
    </>
  );
}
