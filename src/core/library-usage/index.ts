// Usage across the library: a digest per session for the index, and sums over the index's records.
export * from './digest.ts';
export * from './aggregate.ts';
export * from './csv.ts';
export * from './projects.ts';
