/** Three code blocks (TypeScript, shell, JSON: 64 lines, 4.9 KB), as a documentation page has. */
export const CODE_PAGE = `Calling the API:

\`\`\`ts
${`import { GitBookAPI } from '@gitbook/api';
const api = new GitBookAPI({ authToken: process.env.TOKEN, endpoint: 'http://127.0.0.1:8080' });
const { data } = await api.orgs.listSites(orgId, { limit: 20 });
for (const site of data.items) console.log(\`\${site.id}: \${site.title}\`);
`.repeat(6)}\`\`\`

\`\`\`sh
${'curl -s -H "Authorization: Bearer $TOKEN" "$LIVERY/v1/orgs/$ORG/sites" | jq -r \'.items[].id\'\n'.repeat(10)}\`\`\`

\`\`\`json
${'{ "title": "Docs", "styling": { "corners": "rounded", "font": "Inter" } }\n'.repeat(30)}\`\`\`
`;
