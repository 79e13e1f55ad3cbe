// Send: one user turn and the model's reply, written as a rho host writes them. The request is
// built from the branch the message continues (the leaf, or any entry: a new branch there); what
// is written goes through the core's builders and `append` once the reply has ended, in one write.
// A request the provider never answered (offline, refused) writes nothing: the draft stays with the page.
import {
  branch,
  fromPi,
  model as modelInEffect,
  modelChange,
  totals,
  uuidv7From,
  user,
  withLeaf,
  type EntryBody,
  type Entry,
  type Session,
  type Totals,
} from '../../core/index.ts';
import { ApiFailure } from '../protocol.ts';
import { prepareAttachments, type AttachmentDisk, type AttachmentFile } from './attachments.ts';
import { resolveModel } from './catalog.ts';
import type { KeyStore, ProviderConfig } from './keys.ts';
import { replyBodies, streamReply, type StreamDelta } from './reply.ts';
import { buildRequest } from './request.ts';
import type { HostClock, SessionFiles } from './session-file.ts';
import type { SessionStore, SessionSummary } from '../../storage/types.ts';

/** A model the user picked: a configured provider and one of its models. */
export interface ModelChoice {
  provider: string;
  model: string;
}

export interface SendParams extends ModelChoice {
  /** The session to continue; absent for a new chat. */
  id?: string | null;
  /** Continue from this entry (a new branch when it is not the leaf); the file's leaf when absent. */
  leafId?: string | null;
  text: string;
  files?: AttachmentFile[];
}

export interface SendResult {
  id: string;
  /** The last entry written. */
  leafId: string;
  /** Where the user message was written after: a retry sends the same message from there again (a new branch). */
  retryFrom: string | null;
  summary: SessionSummary;
  stopReason: string;
  errorMessage?: string;
  /** This reply's cost (USD) and the branch's totals after it. */
  replyCost: number;
  totals: Totals;
}

export interface HostDeps extends HostClock {
  store: SessionStore;
  keys: KeyStore;
  files: SessionFiles;
  disk: AttachmentDisk;
  namespace?: string;
}

/** The provider config a choice names, with its key. */
export async function configFor(keys: KeyStore, choice: ModelChoice): Promise<ProviderConfig> {
  const config = (await keys.list()).find((p) => p.id === choice.provider);
  if (!config) throw new ApiFailure('not-found', 'That provider is no longer in Models: add it again in Settings → Models.');
  return config;
}

/** The session a turn writes to, at the entry it continues from, and that branch. */
export async function sessionAt(deps: HostDeps, id: string, leafId: string | null | undefined): Promise<{ session: Session; branch: Entry[] }> {
  let session = await deps.files.open(id);
  if (leafId) {
    if (!session.byId.has(leafId)) throw new ApiFailure('not-found', `No entry ${leafId} in this session.`);
    session = withLeaf(session, leafId);
  }
  return { session, branch: branch(session) };
}

/** Sends one message and writes the turn; `onDelta` gets the reply as it streams. */
export async function send(deps: HostDeps, params: SendParams, signal?: AbortSignal, onDelta?: (d: StreamDelta) => void): Promise<SendResult> {
  const text = String(params.text ?? '').trim();
  const files = params.files ?? [];
  if (!text && files.length === 0) throw new ApiFailure('invalid-input', 'Type a message or attach a file first.');
  const config = await configFor(deps.keys, params);
  const model = await resolveModel(config, params.model);
  const spec = fromPi(`${model.provider}/${model.id}`);
  const now = deps.now();

  const fresh = !params.id;
  const id = params.id ?? uuidv7From(now.getTime(), deps.randomId);
  const at = fresh ? { session: { ...deps.files.fresh(spec), id }, branch: [] as Entry[] } : await sessionAt(deps, id, params.leafId);
  const bodies: EntryBody[] = [];
  if (!fresh && modelInEffect(at.branch) !== spec) bodies.push(modelChange(spec));
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const attachments = await prepareAttachments(files, id, stamp, deps.disk, now);
  const userBody = user(text, { attachments });
  bodies.push(userBody);

  const pending = { type: 'message', id: '', parentId: null, timestamp: now.toISOString(), message: userBody.message } as unknown as Entry;
  const request = buildRequest([...at.branch, pending], model);
  const { message, started } = await streamReply(model, request, { apiKey: config.apiKey, signal, onDelta });
  if (!started) {
    if (message.stopReason === 'aborted') throw new ApiFailure('aborted', 'Stopped before the model answered; nothing was written.');
    throw new ApiFailure(
      'provider',
      `${model.provider} did not answer: ${message.errorMessage ?? 'unknown error'}. Nothing was written; your message is kept.`,
    );
  }
  bodies.push(...replyBodies(message, deps.namespace));

  const written = fresh
    ? await deps.files.create(at.session, bodies)
    : await deps.store.withWriteLock(id, async () => {
        const { session } = await sessionAt(deps, id, at.session.leafId);
        return deps.files.append(id, session, bodies);
      });
  const last = written.entries[written.entries.length - 1];
  const asked = written.entries.find((e) => (e.message as { role?: unknown } | undefined)?.role === 'user');
  return {
    id: written.id,
    leafId: String(last.id),
    retryFrom: typeof asked?.parentId === 'string' ? asked.parentId : null,
    summary: written.summary,
    stopReason: message.stopReason,
    ...(message.errorMessage !== undefined ? { errorMessage: message.errorMessage } : {}),
    replyCost: message.usage.cost.total,
    totals: totals(branch(written.session)),
  };
}
