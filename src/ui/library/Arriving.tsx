import { arriving } from '../models/arrivals.ts';
import { plural } from '../models/format.ts';

/**
 * How many sessions are on their way into the list (a sync or another tab bringing many): the list
 * holds still between the steps that take them in, and this says more are coming. It floats over
 * the page, so showing or hiding it moves nothing; it reads the count itself, so a new count draws
 * this line only.
 */
export function Arriving() {
  const n = arriving.value;
  return (
    <p class={n ? 'arriving' : 'arriving gone'} role="status" data-arriving={n}>
      {n ? `${plural(n, 'new session')} arriving…` : ''}
    </p>
  );
}
