import { escapeHtml } from './html-tables.js';

/** One self-contained HTML page: its title (escaped here, also its first heading), its style, and its body after the heading. */
export function htmlPage(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}
