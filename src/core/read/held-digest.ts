// The digest of a session held in memory, kept beside it as entries are appended at its leaf: what
// `digestHeld` reads through every entry (usage rows, first message, date, title, the active
// branch's model and sums, the number of branches) is gathered once, then only the appended entries
// are read. Entries appended anywhere else (a branch from an older entry, a tree the held state no
// longer describes) answer null: the caller reads the session through (`digestHeld`).
import { addAgentMark, agentMark } from '../write/agent.ts';
import { createUsageCollector } from '../library-usage/index.ts';
import { lastAssistantModel, lastModelChange } from '../write/model-spec.ts';
import { createSessionDate } from '../tree/session-date.ts';
import { createTitleReader } from '../tree/title.ts';
import { branch, leaves } from '../tree/tree.ts';
import type { Entry } from '../schema/types.ts';
import { totals } from '../tree/usage.ts';
import { type BranchFacts, digestOf, firstMessageReader, type HeldTree, type SessionDigest } from './digest.ts';

/** A digest kept beside a held session: `appended` gives the digest after entries were appended at its leaf. */
export function createHeldDigest(tree: HeldTree) {
  const usage = createUsageCollector();
  usage.header(tree.header);
  const first = firstMessageReader();
  const dates = createSessionDate();
  if (tree.header) dates.header(tree.header);
  const titles = createTitleReader();
  let seen = 0;
  const read = (entries: readonly Entry[]) => {
    for (; seen < entries.length; seen++) {
      const e = entries[seen];
      first.see(e);
      usage.add(e, seen);
      dates.entry(e);
      titles.see(e);
    }
  };
  read(tree.entries);
  const active = branch(tree);
  const onBranch = new Set(active);
  let leafId = tree.leafId;
  let change = lastModelChange(active);
  let assistant = lastAssistantModel(active);
  let sums = totals(active);
  const branchCount = leaves(tree).length;

  // Whether `added` are the tree's last entries, each the child of the one before, the first of the held leaf.
  const atLeaf = (t: HeldTree, added: readonly Entry[]) => {
    if (!added.length || t.entries.length !== seen + added.length || t.leafId !== added[added.length - 1].id) return false;
    let parent = leafId;
    for (let i = 0; i < added.length; i++) {
      const e = added[i];
      if (t.entries[seen + i] !== e || typeof e.id !== 'string' || e.parentId !== parent || t.indexById.get(e.id) !== seen + i) return false;
      parent = e.id;
    }
    return true;
  };

  return {
    /**
     * The digest of `t` (the held tree, `added` appended at its leaf), as `digestHeld(t, known, added)`
     * gives it; null when they were appended elsewhere (the held state is then stale: read through).
     */
    appended(t: HeldTree, known: Pick<SessionDigest, 'problems' | 'agent'>, added: readonly Entry[]): SessionDigest | null {
      if (!atLeaf(t, added)) return null;
      read(t.entries);
      for (const e of added) onBranch.add(e);
      leafId = t.leafId;
      change = lastModelChange(added) ?? change;
      assistant = lastAssistantModel(added) ?? assistant;
      sums = totals(added, sums);
      let agent = known.agent;
      for (const entry of added) agent = addAgentMark(agent, agentMark(entry, 'entry'));
      // A chain added at the leaf ends where it starts one branch: as many branches as before.
      const held: BranchFacts = { title: titles.title(t), onBranch, branchCount, model: change ?? assistant, totals: sums };
      return digestOf(t, usage, { firstMessage: first.found(), date: dates.date(), problems: known.problems, firstProblem: null, agent }, held);
    },
  };
}

/** A digest kept beside a held session. */
export type HeldDigest = ReturnType<typeof createHeldDigest>;
