import { projectFilter, projects, query, setQuery, sortKey, type SortKey } from '../models/library.ts';
import { projectName } from '../models/format.ts';
import { prepareSearch } from '../models/search.ts';

const SORTS: Array<[SortKey, string]> = [
  ['created', 'Newest first'],
  ['modified', 'Recently imported'],
  ['size', 'Size'],
  ['cost', 'Cost'],
  ['title', 'Title'],
];

/** Search across all sessions, sort, and filter by project. */
export function LibraryToolbar() {
  return (
    <div class="toolbar">
      <input
        type="search"
        class="search"
        aria-label="Search sessions"
        placeholder="Search everything (project: tool: has:error …)"
        value={query.value}
        onFocus={prepareSearch}
        onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
      />
      <select
        aria-label="Sort by"
        value={sortKey.value}
        onChange={(e) => {
          sortKey.value = (e.target as HTMLSelectElement).value as SortKey;
        }}
      >
        {SORTS.map(([key, label]) => (
          <option key={key} value={key}>
            {label}
          </option>
        ))}
      </select>
      <select
        aria-label="Project"
        value={projectFilter.value}
        onChange={(e) => {
          projectFilter.value = (e.target as HTMLSelectElement).value;
        }}
      >
        <option value="">All projects</option>
        {projects.value.map((cwd) => (
          <option key={cwd} value={cwd}>
            {projectName(cwd)}
          </option>
        ))}
      </select>
    </div>
  );
}
