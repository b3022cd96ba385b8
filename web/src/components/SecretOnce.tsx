/** A secret the API shows once (a token, a signing secret): shown until dismissed, never again. */
export function SecretOnce({
  label,
  secret,
  onDismiss,
}: {
  label: string;
  secret: string;
  onDismiss: () => void;
}) {
  return (
    <div class="panel secret" role="status">
      <h2>{label}</h2>
      <p>Copy it now: the service shows it only this once.</p>
      <p>
        <code class="secret-value" data-testid="secret-once">
          {secret}
        </code>
      </p>
      <button type="button" class="secondary" onClick={onDismiss}>
        I have stored it
      </button>
    </div>
  );
}
