/**
 * Which price sources are the TPA's own for price testing (DOMAIN.md 2.4 item 4): a TPA's own
 * price is no independent evidence.
 */
import { chunksOf, type FundSdmData } from '../sdm/rows.js';
import type { CheckContext } from './common.js';

const key = (id: string) => id.trim().toUpperCase();
const same = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Price sources that are the TPA's own, not independent evidence: those in ctx.tpaPriceSources;
 * those contained in the administrator's name (source 'Meridian' for 'Meridian Fund Services');
 * and any source whose every price equals the TPA's holding price of the same security (a copy of
 * the TPA's prices, as in the fixtures' prices files).
 */
export async function tpaOwnSources(data: FundSdmData, ctx: CheckContext): Promise<Set<string>> {
  const own = new Set((ctx.tpaPriceSources ?? []).map((s) => s.trim().toLowerCase()));
  const admin = (ctx.administrator ?? '').toLowerCase();
  if (!data.prices.length) return own;
  const holdingPrice = new Map<string, number>();
  for await (const chunk of chunksOf(data.holdings)) for (const h of chunk) holdingPrice.set(key(h.security_id), h.price);
  const copies = new Map<string, boolean>();
  for await (const chunk of chunksOf(data.prices))
    for (const p of chunk) {
      const s = p.price_source.trim().toLowerCase();
      const hp = holdingPrice.get(key(p.security_id));
      if (hp === undefined) continue;
      copies.set(s, (copies.get(s) ?? true) && same(hp, p.price));
    }
  for (const [s, copy] of copies) if (copy || (admin && s && admin.includes(s))) own.add(s);
  return own;
}
