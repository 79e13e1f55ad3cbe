// Property tests draw from one seed, so a run is the same on every machine: CI stays a verdict on
// the code, not on the draw. FC_SEED=<n> replays or explores other draws (a failure prints its seed).
import fc from 'fast-check';

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261201) });
