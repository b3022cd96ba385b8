import { useEffect, useState } from 'preact/hooks';
import { textParam } from '../api/query-state';
import { useQueryState } from '../router';

/**
 * Filters bound to the URL query: each field's `key` is a query parameter (name it as the API
 * names the filter, so the screen passes it through). Selects apply at once; text applies on
 * submit. Any change returns to the first page.
 */
export type FilterField =
  | { kind: 'search'; key: string; label: string; placeholder?: string }
  | { kind: 'select'; key: string; label: string; options: readonly string[] };

export function FilterBar({
  fields,
  label = 'Filters',
}: {
  fields: readonly FilterField[];
  label?: string;
}) {
  const { search, setFilter } = useQueryState();
  const [texts, setTexts] = useState<Record<string, string>>({});
  useEffect(() => {
    const next: Record<string, string> = {};
    for (const field of fields)
      if (field.kind === 'search') next[field.key] = textParam(search, field.key) ?? '';
    setTexts(next);
  }, [search, fields]);

  const onSubmit = (event: Event) => {
    event.preventDefault();
    setFilter(Object.fromEntries(Object.entries(texts).map(([key, value]) => [key, value.trim()])));
  };
  const active = fields.some((field) => textParam(search, field.key) !== null);
  return (
    <form class="filters" aria-label={label} onSubmit={onSubmit}>
      {fields.map((field) => {
        const id = `filter-${field.key}`;
        if (field.kind === 'select') {
          return (
            <label key={field.key} for={id}>
              {field.label}
              <select
                id={id}
                value={textParam(search, field.key) ?? ''}
                onChange={(event) => setFilter({ [field.key]: event.currentTarget.value })}
              >
                <option value="">Any</option>
                {field.options.map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            </label>
          );
        }
        return (
          <label key={field.key} for={id}>
            {field.label}
            <input
              id={id}
              type="search"
              value={texts[field.key] ?? ''}
              placeholder={field.placeholder}
              onInput={(event) => setTexts({ ...texts, [field.key]: event.currentTarget.value })}
            />
          </label>
        );
      })}
      {fields.some((field) => field.kind === 'search') && <button type="submit">Apply</button>}
      {active && (
        <button
          type="button"
          class="secondary"
          onClick={() => setFilter(Object.fromEntries(fields.map((field) => [field.key, null])))}
        >
          Clear filters
        </button>
      )}
    </form>
  );
}
