/** Why this view cannot be changed: the API's own reason, from the abilities endpoint. */
export function ReadOnlyNotice({ reason }: { reason: string }) {
  return (
    <p class="read-only-notice" role="note" data-testid="read-only-notice">
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <path
          d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5Zm-3 8V7a3 3 0 0 1 6 0v3Z"
          fill="currentColor"
        />
      </svg>
      <span>
        <strong>Read only:</strong> you can look at everything here but change nothing. The server's
        reason: <q>{reason}</q>
      </span>
    </p>
  );
}
