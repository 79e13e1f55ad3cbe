// Claude Code sessions (~/.claude/projects/<dir>/<uuid>.jsonl, subagents in
// <uuid>/subagents/agent-<id>.jsonl) → pi v3. See convert.ts (the lines), tree.ts (the tree),
// content.ts (the blocks), usage.ts and responses.ts (usage once per API response).
export { claudeToPi } from './convert.ts';
export { looksLikeClaude, isClaudeRecord } from './detect.ts';
