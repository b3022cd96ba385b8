import { useLocation } from '../router';

/** A route whose screen is not built yet: says so, with the filters the link carried. */
export default function Pending() {
  const { path, search } = useLocation();
  const filters = [...new URLSearchParams(search).entries()];
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">Not built yet</h1>
      <p>
        The screen for <code>{path}</code> is not part of this version of the web app.
      </p>
      {filters.length > 0 && (
        <p>
          Filters:{' '}
          {filters.map(([key, value]) => (
            <code key={key}>
              {key}={value}{' '}
            </code>
          ))}
        </p>
      )}
    </section>
  );
}
