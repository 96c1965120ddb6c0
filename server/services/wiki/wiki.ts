/**
 * WAM Wiki content (auditor spec 2.5, `GET /wiki-data`): sections of titled links and mail items,
 * plus a data sandbox and sample outputs. The operator edits `<data dir>/wiki.json`; the first
 * read writes the default content there.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { ValidationError } from '../../errors.js';

const item = z.object({
  type: z.enum(['link', 'mail']),
  title: z.string().min(1),
  url: z.string().optional(),
  email: z.string().optional(),
  description: z.string().optional(),
});
export const wikiSchema = z.object({
  sections: z.array(z.object({ title: z.string().min(1), items: z.array(item) })),
  dataSandbox: z.array(item).default([]),
  sampleOutputs: z.array(item).default([]),
});
export type WikiData = z.infer<typeof wikiSchema>;

/** Where the product serves docs/onboarding.md (a download-token link, see routes/tpa.ts). */
export const ONBOARDING_DOC_URL = '/api/v2.0/docs/onboarding.md';
/** The link the 'Standard data model' item had before the onboarding guide existed. */
const FORMER_SDM_URL = 'https://www.sec.gov/files/formn-port.pdf';

/** The default wiki: where the product's own documentation and formats are described. */
export const DEFAULT_WIKI: WikiData = {
  sections: [
    {
      title: 'Getting started',
      items: [{ type: 'link', title: 'Bulk upload template', url: '/api/v2.0/fund-request/download', description: 'The CSV template with one example row' }],
    },
    {
      title: 'Data delivery',
      items: [
        {
          type: 'link',
          title: 'Standard data model',
          url: ONBOARDING_DOC_URL,
          description: 'Onboarding a TPA: SDM types and columns, file layouts, date and number formats, mapping targets, a worked example',
        },
        { type: 'mail', title: 'Delivery team', email: 'delivery@fund-audit.local', description: 'Questions about TPA files and mappings' },
      ],
    },
  ],
  dataSandbox: [{ type: 'link', title: 'Demo TPA demo_test', url: '/tools', description: 'Self-onboard files to the demo TPA to try the pipeline' }],
  sampleOutputs: [
    {
      type: 'link',
      title: 'Work paper of the Goldman Sachs Bond Fund (2023-03-31)',
      url: '/data-platform',
      description: 'Download it from the Funds Listing once its files are processed',
    },
  ],
};

/**
 * Reads the wiki content of a data directory.
 * @throws ValidationError naming the problem when wiki.json is not valid
 */
export function wikiData(ctx: AppContext): WikiData {
  const file = join(ctx.config.dataDir, 'wiki.json');
  if (!existsSync(file)) {
    writeFileSync(file, JSON.stringify(DEFAULT_WIKI, null, 2));
    return DEFAULT_WIKI;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ValidationError(`wiki.json in the data directory is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = wikiSchema.safeParse(raw);
  if (!parsed.success)
    throw new ValidationError(
      'wiki.json in the data directory is not valid',
      parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    );
  return pointSdmLinkAtGuide(parsed.data);
}

/** A wiki written before the onboarding guide existed still links 'Standard data model' to the SEC form: point it at the guide. */
function pointSdmLinkAtGuide(wiki: WikiData): WikiData {
  for (const section of wiki.sections)
    for (const item of section.items)
      if (item.url === FORMER_SDM_URL && item.title === 'Standard data model') {
        item.url = ONBOARDING_DOC_URL;
        item.description = 'Onboarding a TPA: SDM types and columns, file layouts, date and number formats, mapping targets, a worked example';
      }
  return wiki;
}
