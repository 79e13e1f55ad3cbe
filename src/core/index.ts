// The core's public API (notes/core-api.md): pure functions over strings, bytes and plain data.
export type * from './types.ts';
export { parse, read, serialize, isHeader, versionOf } from './parse.ts';
export { readHeader } from './header.ts';
export { branch, walkBranch, children, leaves, leafOf, withLeaf, checkTree, hasParent } from './tree.ts';
export type { TreeLike, TreeNode, TreeCheck } from './tree.ts';
export { CURRENT_SESSION_VERSION, v1Id } from './migrate.ts';
export { isTitleSlot } from './title-slot.ts';
export * from './schemas.ts';
