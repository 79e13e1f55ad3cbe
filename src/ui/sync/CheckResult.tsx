// What "Check" (or a failed setup or pairing) answered: a headline per kind of failure, the
// provider's own answer, the fix, and for CORS the rule to paste and where.
import type { CheckView, SyncProblem } from './model.ts';
import { FIX, HEADLINE } from './model.ts';
import type { Provider } from './providers.ts';

export function ProblemView({ problem, provider, origin }: { problem: SyncProblem; provider?: Provider; origin: string }) {
  const rule = problem.code === 'cors-blocked' && provider ? provider.cors(origin) : '';
  return (
    <div class="sync-problem" role="alert" data-code={problem.code}>
      <strong>{HEADLINE[problem.code] ?? 'Sync failed'}</strong>
      <p>{problem.message}</p>
      {FIX[problem.code] && <p class="sync-fix">{FIX[problem.code]}</p>}
      {rule && (
        <>
          <p class="muted">{provider?.corsWhere}</p>
          <pre class="sync-rule" data-testid="cors-rule">
            {rule}
          </pre>
        </>
      )}
    </div>
  );
}

export function CheckResult({ result, provider, origin }: { result: CheckView; provider?: Provider; origin: string }) {
  if (!result.ok && result.error) return <ProblemView problem={result.error} provider={provider} origin={origin} />;
  const note =
    result.space === 'ours'
      ? 'Everything works: this is your sync space.'
      : result.space === 'foreign'
        ? 'The provider answers, but a sync space of another key is here: pair this device from one of its devices instead.'
        : 'Everything works: reading, writing and deleting are allowed here.';
  return (
    <p class="sync-ok" role="status">
      {note}
    </p>
  );
}
