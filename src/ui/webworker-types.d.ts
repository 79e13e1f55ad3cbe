// The page type-checks the worker API's signatures (import type from ../worker/api.ts), which pulls
// in storage code that uses OPFS sync access handles. Those types exist only in TypeScript's
// WebWorker lib, which cannot be combined with DOM (https://github.com/microsoft/TypeScript/issues/20595),
// so the page program gets just these declarations. The page itself never calls them.
interface FileSystemReadWriteOptions {
  at?: number;
}
interface FileSystemSyncAccessHandle {
  close(): void;
  flush(): void;
  getSize(): number;
  read(buffer: AllowSharedBufferSource, options?: FileSystemReadWriteOptions): number;
  truncate(newSize: number): void;
  write(buffer: AllowSharedBufferSource, options?: FileSystemReadWriteOptions): number;
}
interface FileSystemFileHandle {
  createSyncAccessHandle(): Promise<FileSystemSyncAccessHandle>;
}
interface DedicatedWorkerGlobalScope extends WorkerGlobalScope {
  postMessage(message: unknown, transfer?: Transferable[]): void;
}
