// vite's import.meta.glob, as the worker uses it (the worker's tsconfig has no vite types).
interface ImportMeta {
  glob<T>(pattern: string): Record<string, () => Promise<T>>;
}
