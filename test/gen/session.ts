/**
 * Deterministic generator of realistic session files (pi, omp or Rho flavour) of a target size:
 * user turns with tool round-trips, thinking with signatures, inline base64 images (or omp blob
 * refs), aborted / errored / empty turns, branches (with and without branch summaries),
 * compactions, model and thinking-level changes, custom messages, labels, bash executions.
 *
 * Shapes follow docs/session-format.md §1–§3. The output is a sequence of lines
 * (without '\n'); `generateSessionText` joins them with '\n' and a final '\n'.
 */
import { MODELS_PI, titleSlot, usage } from './session-parts.ts';
import { base64Bytes, code, paragraph, path, sentence, toolOutput } from './text.ts';
import { type GenerateOptions, type Node, SessionWriter } from './session-writer.ts';

export { titleSlot } from './session-parts.ts';
export type { Flavor, GenerateOptions } from './session-writer.ts';

/** Generates the lines of one session file. */
export function* generateSessionLines(opts: GenerateOptions): Generator<string> {
  const g = new SessionGen(opts);
  yield* g.run();
}

/** Generates a whole session file as text (ends with '\n'). */
export function generateSessionText(opts: GenerateOptions): string {
  const lines: string[] = [];
  for (const l of generateSessionLines(opts)) lines.push(l);
  return lines.join('\n') + '\n';
}

class SessionGen extends SessionWriter {
  *run(): Generator<string> {
    const rng = this.rng;
    if (this.flavor === 'omp') this.emitLine(titleSlot(rng.pick(['Fix the parser', 'Refactor tree walk', 'Ünïcödé title 日本語', '']), this.iso()));
    const header: Record<string, unknown> = {
      type: 'session',
      version: 3,
      id: this.uuidv7(),
      timestamp: this.iso(),
      cwd: '/home/dev/project',
    };
    if (this.flavor === 'omp' && rng.chance(0.5)) {
      header.title = 'Stale header title';
      header.titleSource = 'auto';
    }
    this.emitLine(JSON.stringify(header));
    this.modelChange();
    if (this.flavor !== 'rho')
      this.entry('thinking_level_change', this.flavor === 'omp' ? { thinkingLevel: 'high', configured: 'high' } : { thinkingLevel: 'high' });
    yield* this.drain();
    while (this.bytes < this.o.targetBytes) {
      this.turn();
      yield* this.drain();
    }
  }

  private *drain(): Generator<string> {
    const lines = this.out;
    this.out = [];
    yield* lines;
  }

  // ---- one user turn ------------------------------------------------------------------------

  private turn(): void {
    const rng = this.rng;
    if (this.nodes.length > 6 && rng.chance(this.o.branchRate)) this.branch();
    if (this.bytes >= this.nextCompactionAt) {
      this.nextCompactionAt += this.o.compactionEvery;
      this.compaction();
    }
    if (rng.chance(0.03)) this.modelChange();
    if (rng.chance(0.03))
      this.entry(
        'thinking_level_change',
        this.flavor === 'omp'
          ? { thinkingLevel: rng.pick(['low', 'high', null]), configured: rng.pick(['auto', null, 'low']) }
          : { thinkingLevel: rng.pick(['off', 'low', 'medium', 'high']) },
      );
    if (this.flavor === 'omp' && rng.chance(0.02)) this.entry('reset_boundary', {});
    this.sideEntries();
    this.userMessage();
    const rounds = rng.chance(0.15) ? 0 : rng.int(1, 8);
    for (let r = 0; r < rounds; r++) {
      if (rng.chance(this.o.abortRate)) {
        this.brokenTurn();
        if (rng.chance(0.5)) return;
      }
      this.toolRound();
    }
    this.finalReply();
  }

  private sideEntries(): void {
    const rng = this.rng;
    if (rng.chance(0.04)) {
      const content = rng.chance(0.5) ? sentence(this.rng) : [{ type: 'text', text: paragraph(rng) }];
      const customType = this.flavor === 'rho' ? rng.pick(['rho.notice', 'rho.error', 'rho.aside']) : rng.pick(['skill-prompt', 'lsp-late-diagnostic', 'note']);
      const body: Record<string, unknown> = { customType, content, display: rng.chance(0.7) };
      if (rng.chance(0.3)) body.details = { source: 'gen', n: rng.int(0, 9) };
      if (this.flavor === 'omp') body.attribution = 'agent';
      this.customFirst('custom_message', body);
    }
    if (rng.chance(0.03)) this.customFirst('custom', { customType: rng.pick(['todo-state', 'session_exit']), data: { items: [sentence(rng)] } });
    if (rng.chance(0.02) && this.nodes.length > 0) {
      this.entry('label', { targetId: rng.pick(this.nodes).id, label: rng.chance(0.8) ? rng.pick(['good', 'checkpoint', 'bug']) : undefined });
    }
    if (this.flavor === 'pi' && rng.chance(0.01)) this.entry('session_info', { name: sentence(rng, 3) });
    if (this.flavor === 'omp' && rng.chance(0.01)) this.entry('title_change', { title: sentence(rng, 3), source: 'auto', trigger: 'auto' });
    if (this.flavor === 'omp' && rng.chance(0.02))
      this.entry('model_usage', {
        purpose: 'title',
        api: 'anthropic-messages',
        provider: 'anthropic',
        model: 'claude-haiku-4-5',
        usage: usage(this.rng),
        stopReason: 'stop',
      });
    if (this.flavor !== 'rho' && rng.chance(0.03)) {
      this.message({
        role: 'bashExecution',
        command: rng.pick(['ls -la', 'npm test', 'git status']),
        output: rng.chance(0.8) ? toolOutput(rng, rng.int(50, 2000)) : '',
        exitCode: rng.pick([0, 0, 1, undefined]),
        cancelled: rng.chance(0.1),
        truncated: rng.chance(0.1),
        fullOutputPath: this.flavor === 'pi' && rng.chance(0.5) ? '/tmp/out.log' : undefined,
        timestamp: this.tick(),
        excludeFromContext: rng.chance(0.2) || undefined,
      });
    }
  }

  private userMessage(): void {
    const rng = this.rng;
    const typed = rng.chance(0.3) ? paragraph(rng) + '\n\n```ts\n' + code(rng, rng.int(2, 12)) + '\n```' : paragraph(rng);
    const content: unknown[] = [{ type: 'text', text: typed }];
    const msg: Record<string, unknown> = { role: 'user', content, timestamp: this.tick() };
    if (this.flavor === 'rho' && rng.chance(0.15)) {
      const attachments = [];
      for (let i = rng.int(1, 2); i > 0; i--) {
        const name = `photo-${rng.hex(4)}.jpg`;
        const att = { kind: 'image', name, path: `/work/att/${name}`, mimeType: 'image/jpeg', about: `${rng.int(100, 900)} KB photo, ${sentence(rng, 4)}` };
        attachments.push(att);
        content.push({ type: 'text', text: `<attachment name="${name}" type="image/jpeg" path="${att.path}">\n${att.about}\n</attachment>` });
        content.push(this.image());
      }
      msg.attachments = attachments;
    } else if (rng.chance(this.o.imageRate)) {
      content.push(this.image());
    }
    if (this.flavor === 'omp' && rng.chance(0.05)) msg.steering = true;
    if (content.length === 1 && rng.chance(0.4)) msg.content = typed;
    this.message(msg);
  }

  private toolRound(): void {
    const rng = this.rng;
    const calls = [];
    for (let i = rng.chance(0.8) ? 1 : rng.int(2, 3); i > 0; i--) calls.push(this.toolCall());
    const content: unknown[] = [];
    if (rng.chance(0.7)) content.push(this.thinkingPart());
    if (rng.chance(0.5)) content.push({ type: 'text', text: sentence(rng) });
    content.push(...calls);
    this.message(this.assistantMsg(content, 'toolUse'));
    for (const call of calls) {
      const resultContent: unknown[] = [{ type: 'text', text: toolOutput(rng, this.toolBytes()) }];
      if (rng.chance(this.o.imageRate)) resultContent.push(this.image());
      if (rng.chance(0.1)) resultContent.push({ type: 'text', text: sentence(rng) });
      const tr: Record<string, unknown> = {
        role: 'toolResult',
        toolCallId: call.id,
        toolName: call.name,
        content: resultContent,
        isError: rng.chance(0.08),
        timestamp: this.tick(),
      };
      if (rng.chance(0.4)) tr.details = { diff: code(rng, 3), truncated: false };
      this.message(tr);
    }
  }

  /** An aborted / errored / empty / retry-recovered assistant turn. */
  private brokenTurn(): void {
    const rng = this.rng;
    const kind = rng.int(0, 4);
    if (kind === 0) {
      // Aborted mid-tool-call: a dangling call that never gets a result.
      this.message(this.assistantMsg([this.thinkingPart(), { type: 'text', text: sentence(rng) }, this.toolCall()], 'aborted', 'Request was aborted'));
    } else if (kind === 1) {
      // Empty error turn (pi persists these).
      this.message(this.assistantMsg([], 'error', '429 rate limited'));
    } else if (kind === 2) {
      // Thinking-only aborted turn.
      this.message(this.assistantMsg([{ type: 'thinking', thinking: sentence(rng) }], 'aborted', 'Interrupted by user'));
    } else if (kind === 3) {
      // Error with partial text.
      this.message(this.assistantMsg([{ type: 'text', text: sentence(rng) }], 'error', 'stream ended'));
    } else if (this.flavor === 'omp') {
      const m = this.assistantMsg([{ type: 'text', text: sentence(rng) }], 'error', 'overloaded');
      m.retryRecovery = rng.chance(0.5)
        ? { kind: 'auto-retry', status: 'recovered', attempt: 1, recoveredAt: this.iso(), recovery: 'wait', note: 'rate-limited; waited; retried' }
        : { kind: 'auto-retry', status: 'superseded', attempt: 2, recovery: 'plain', note: 'error; retried' };
      this.message(m);
    } else {
      // A tool call whose result never came (normal stop, dangling call).
      this.message(this.assistantMsg([{ type: 'text', text: sentence(rng) }, this.toolCall()], 'toolUse'));
    }
  }

  private finalReply(): void {
    const rng = this.rng;
    const content: unknown[] = [];
    if (rng.chance(0.6)) content.push(this.thinkingPart());
    if (this.flavor === 'omp' && rng.chance(0.05)) content.push({ type: 'redactedThinking', data: base64Bytes(rng, 60) });
    if (this.flavor === 'pi' && rng.chance(0.03)) content.push({ type: 'thinking', thinking: '', thinkingSignature: base64Bytes(rng, 60), redacted: true });
    const pictureOnly = this.flavor !== 'pi' && rng.chance(0.03);
    if (!pictureOnly) content.push({ type: 'text', text: rng.chance(0.4) ? paragraph(rng) + '\n\n```ts\n' + code(rng) + '\n```' : paragraph(rng) });
    if (this.flavor !== 'pi' && (pictureOnly || rng.chance(0.03))) content.push(this.image());
    this.message(this.assistantMsg(content, 'stop'));
  }

  // ---- tree moves -----------------------------------------------------------------------------

  private branchPath(): Node[] {
    const walk: Node[] = [];
    const seen = new Set<string>();
    let cur = this.leaf ? this.byId.get(this.leaf) : undefined;
    while (cur && !seen.has(cur.id)) {
      seen.add(cur.id);
      walk.push(cur);
      cur = cur.parentId ? this.byId.get(cur.parentId) : undefined;
    }
    return walk.reverse();
  }

  /** Moves the leaf back to an earlier entry on the branch (pi `branch`/`branchWithSummary`). */
  private branch(): void {
    const rng = this.rng;
    const onBranch = this.branchPath();
    if (onBranch.length < 4) return;
    const at = onBranch[rng.int(Math.floor(onBranch.length / 2), onBranch.length - 2)];
    this.leaf = at.id;
    if (rng.chance(0.5)) {
      const body: Record<string, unknown> = { fromId: at.id, summary: rng.chance(0.9) ? paragraph(rng) : '' };
      if (rng.chance(0.3)) body.details = { readFiles: [path(rng)], modifiedFiles: [] };
      body[this.flavor === 'omp' ? 'fromExtension' : 'fromHook'] = false;
      this.entry('branch_summary', body);
    }
  }

  private compaction(): void {
    const rng = this.rng;
    const onBranch = this.branchPath();
    if (onBranch.length < 4) return;
    // Usually a user message in the recent part; sometimes any entry; rarely an id not on the branch.
    const recent = onBranch.slice(Math.floor(onBranch.length * 0.7));
    const users = recent.filter((n) => n.role === 'user');
    let firstKept = users.length > 0 && rng.chance(0.8) ? rng.pick(users).id : rng.pick(recent).id;
    if (rng.chance(0.03)) firstKept = 'deadbeef';
    const summary = `## Goal\n${paragraph(rng)}\n\n## Progress\n- ${sentence(rng)}\n- ${sentence(rng)}\n\n<read-files>\n${path(rng)}\n</read-files>`;
    const tokensBefore = rng.int(20000, 190000);
    if (this.flavor === 'pi') {
      this.entry('compaction', {
        summary,
        firstKeptEntryId: firstKept,
        tokensBefore,
        details: { readFiles: ['src/a.ts'], modifiedFiles: [] },
        fromHook: false,
      });
    } else if (this.flavor === 'omp') {
      this.entry('compaction', {
        summary,
        shortSummary: sentence(rng, 8),
        firstKeptEntryId: firstKept,
        tokensBefore,
        tokensAfter: rng.int(2000, 20000),
        method: rng.pick(['soft', 'soft', 'handoff']),
        details: { readFiles: ['src/a.ts'], modifiedFiles: [] },
        fromExtension: false,
      });
    } else {
      this.entry('compaction', { summary, firstKeptEntryId: firstKept, tokensBefore, tokensAfter: rng.int(2000, 20000), method: 'soft', fromExtension: false });
    }
  }

  private modelChange(): void {
    const m = MODELS_PI[(this.modelIx = this.rng.int(0, MODELS_PI.length - 1))];
    if (this.flavor === 'pi') this.entry('model_change', { provider: m.provider, modelId: m.model });
    else if (this.flavor === 'omp') {
      const role = this.rng.chance(0.2) ? this.rng.pick(['smol', 'fallback', 'plan']) : undefined;
      this.entry('model_change', { model: `${m.provider}/${m.model}`, role, resolvedModelIsFallback: role === 'fallback' });
    } else this.entry('model_change', { model: `${m.provider}/${m.model}`, provider: m.provider, modelId: m.model });
  }

  // ---- parts ----------------------------------------------------------------------------------
}
