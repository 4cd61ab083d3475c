/**
 * The document of a page that could not be made in time, or whose worker thread failed (a page
 * far past the content limits, stored before they were enforced): a warning hint that says so,
 * then the page's Markdown as written, in one code block (docs/content.md, "Limits"). Written as
 * JSON text directly: it stands in for a document that was too costly to make, so it must cost
 * next to nothing itself, whatever the page's size.
 */
export function noticeDocumentJson(markdown: string, why: 'time' | 'failure'): string {
  const notice =
    why === 'time'
      ? 'This page is too large to show as a document in time: its text is shown as written.'
      : 'This page could not be shown as a document: its text is shown as written.';
  const text = (value: string, key: string) =>
    `{"object":"text","key":"${key}","leaves":[{"object":"leaf","text":${JSON.stringify(value)},"marks":[]}]}`;
  const hint = `{"object":"block","type":"hint","key":"0","data":{"style":"warning"},"nodes":[{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[${text(notice, '2')}]}]}`;
  // One code line holding the whole text: its line breaks are kept by the code block.
  const code = `{"object":"block","type":"code","key":"3","data":{},"nodes":[{"object":"block","type":"code-line","key":"4","data":{},"nodes":[${text(markdown.replace(/\n$/, ''), '5')}]}]}`;
  return `{"object":"document","data":{},"nodes":[${hint},${code}]}`;
}
