// "Check" and making a space: list, put, get and delete a probe object (each step's failure is
// the provider's classified answer), then whether a space is there and opens with this key.
import { randomHex, sameBytes } from './bytes.ts';
import { ROOT, seal, SPACE_OBJECT, unseal } from './envelope.ts';
import { SyncError, type CheckResult, type SpaceKeys, type Transport } from './types.ts';

/** Whether the space marker is there and ours. */
export async function spaceState(transport: Transport, keys: SpaceKeys, signal?: AbortSignal): Promise<CheckResult['space']> {
  let bytes: Uint8Array;
  try {
    bytes = await transport.get(SPACE_OBJECT, signal);
  } catch (error) {
    if (error instanceof SyncError && error.code === 'not-found') return 'none';
    throw error;
  }
  try {
    await unseal(keys, SPACE_OBJECT, bytes);
    return 'ours';
  } catch {
    return 'foreign';
  }
}

export async function checkSpace(deps: { transport: Transport; keys: SpaceKeys }, signal?: AbortSignal): Promise<CheckResult> {
  const { transport, keys } = deps;
  const probe = `${ROOT}check-${randomHex(8)}`;
  const body = crypto.getRandomValues(new Uint8Array(32));
  try {
    await transport.list(ROOT, signal);
    await transport.put(probe, body, signal);
    const back = await transport.get(probe, signal);
    if (!sameBytes(back, body)) throw new SyncError('server', `${transport.where} gave back other bytes than were written`, { object: probe });
    await transport.delete(probe, signal);
    return { ok: true, space: await spaceState(transport, keys, signal) };
  } catch (error) {
    if (error instanceof SyncError) return { ok: false, error, space: 'none' };
    throw error;
  }
}

/** Makes the space here (its marker) unless one is there; refuses a space of another key. */
export async function createSpace(transport: Transport, keys: SpaceKeys, now: number, signal?: AbortSignal): Promise<'created' | 'exists'> {
  const state = await spaceState(transport, keys, signal);
  if (state === 'ours') return 'exists';
  if (state === 'foreign')
    throw new SyncError('no-space', `${transport.where} already holds a sync space of another key: use another prefix or folder, or pair with it.`);
  const marker = new TextEncoder().encode(JSON.stringify({ format: 'rho-sessions-sync', v: 1, created: now }));
  await transport.put(SPACE_OBJECT, await seal(keys, marker), signal);
  return 'created';
}
