/** What the error page says. */
export interface SsoErrorPageInput {
  code: string;
  message: string;
  requestId: string;
}

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => escapes[character]!);
}

/**
 * The page a browser sees when single sign-on fails and no web app is served to send it to:
 * what went wrong, the error code and request id (for the administrator), and a way back.
 */
export function renderSsoErrorPage(input: SsoErrorPageInput): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Single sign-on failed</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.5}code{background:#f2f2f2;padding:0 .25rem}</style></head>
<body>
<main>
<h1>Single sign-on failed</h1>
<p>${escapeHtml(input.message)}</p>
<p>Error code <code>${escapeHtml(input.code)}</code>, request id <code>${escapeHtml(input.requestId)}</code>.</p>
<p><a href="/login">Back to sign-in</a></p>
</main>
</body>
</html>
`;
}
