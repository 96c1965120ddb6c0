"""
Fair comparator for bench/throughput.bench.ts: Fund Audit's whole job on a Meridian holdings
delivery, written as an idiomatic pandas + xlsxwriter script, producing a work paper with the
same sheets and the same per-position Holdings sheet (25 columns, same number formats).

  python work-paper.py HOLDINGS.csv OUT.xlsx [--tb TB.csv] [--mappings DIR] [--fx DIR]

1. Reads the TPA's holdings CSV with its file layout (fixtures/tpas/meridian_fund_services/
   mappings/file_layout.csv): semicolon delimiter, decimal comma and thousands dot per number
   column, DD/MM/YYYY dates, the 3 title lines above the header; source columns are renamed to
   SDM columns. Reads the trial balance the same way.
2. Maps `Asset Class` codes through the master instrument mapping (standard_instrument) and the
   GL accounts through the account mapping (standard_account).
3. Builds the standardized per-position rows with their lineage: file, line, the mapping rows
   applied, and the independent FX rate of each foreign position (latest ECB cross rate on or
   before the period end, from fixtures/fx, stale past 5 days) with its date, source and status.
4. Sums per security (quantity, market value local / base) and in total, split into derivatives
   and other investments, and compares the totals with the trial balance (INVESTMENTS_AT_VALUE;
   DERIVATIVES_ASSET + DERIVATIVES_LIABILITY), as the product's investments reconciliation does.
5. Writes the work paper with xlsxwriter in constant_memory mode (rows flushed as written):
   Summary, Trial balance, Holdings (one row per position, 25 columns, bold frozen header, column
   widths, price / rate / money / int / date formats, a totals row), Investments reconciliation,
   Price testing (per security), Capital roll-forward, Unadjusted differences, Exceptions; prints
   one JSON line of results.

It does not run the product's other checks (identifier check digits, quantity x price against
market value, duplicates, stale prices, NAV and capital roll-forward): the work it leaves out is
the product's extra, not the comparator's.

Environment: the bench runs this in its own virtual environment (bench/results/pandas-venv, git
ignored) made with `python3 -m venv --system-site-packages` by Debian's /usr/bin/python3: PyPI is
not reachable from the build machines, so pandas, numpy and xlsxwriter come from Debian's packages
(python3-pandas, python3-xlsxwriter), which the venv sees through the system site packages.
"""
import argparse
import datetime as dt
import glob
import json
import os
import sys
import time

import pandas as pd
import xlsxwriter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
TPA = os.path.join(ROOT, 'fixtures', 'tpas', 'meridian_fund_services')
DATE_FORMATS = {'DD/MM/YYYY': '%d/%m/%Y', 'MM/DD/YYYY': '%m/%d/%Y', 'YYYY-MM-DD': '%Y-%m-%d', 'DD.MM.YYYY': '%d.%m.%Y', 'YYYYMMDD': '%Y%m%d'}
NUMBER_COLUMNS = {
    'holdings': ['quantity', 'price', 'fx_rate', 'market_value_local', 'market_value_base', 'cost_base', 'accrued_income_base'],
    'trial_balance': ['balance_local', 'balance_base'],
}
TITLE_LINES = 3
FUND_CURRENCY = 'USD'
FX_MAX_AGE_DAYS = 5
FMT = {'money': '#,##0.00', 'int': '#,##0', 'price': '#,##0.00########', 'rate': '0.00000000', 'date': 'dd/mm/yyyy'}

# The Holdings sheet: header, width and number format of each column (as the product's)
HOLDINGS = [
    ('Security id', 20, None), ('Id type', 10, None), ('Name', 40, None), ('Instrument type (delivered)', 18, None),
    ('Standard instrument', 18, None), ('Quantity', 16, 'price'), ('Price', 16, 'price'), ('Price currency', 10, None),
    ('TPA FX rate', 14, 'rate'), ('Value local', 18, 'money'), (f'Value base ({FUND_CURRENCY})', 18, 'money'),
    ('Cost base', 18, 'money'), ('Accrued income base', 16, 'money'), ('Country', 10, None), ('As of', 12, 'date'),
    ('File', 44, None), ('Line', 8, 'int'), ('Mapping rows applied', 70, None), ('Independent price', 16, 'price'),
    ('Price date', 12, 'date'), ('Price source', 34, None), ('Independent FX rate', 14, 'rate'), ('Rate date', 12, 'date'),
    ('Rate source', 50, None), ('FX rate status', 40, None),
]


def layout_of(mappings: str, sdm_type: str) -> pd.DataFrame:
    """The layout rows (source column -> SDM column, formats) of one SDM type."""
    layout = pd.read_csv(os.path.join(mappings, 'file_layout.csv'), dtype=str, keep_default_na=False)
    return layout[layout.sdm_type == sdm_type]


def read_delivery(path: str, layout: pd.DataFrame, sdm_type: str) -> pd.DataFrame:
    """A delivered table read by its layout: SDM column names, numbers as floats, dates as datetime64, `line` its line in the file."""
    numbers = layout[layout.sdm_column.isin(NUMBER_COLUMNS[sdm_type])]
    decimal, thousands = numbers[['decimal_separator', 'thousands_separator']].drop_duplicates().iloc[0]
    texts = {s: str for s in layout.source_column[~layout.sdm_column.isin(NUMBER_COLUMNS[sdm_type])]}
    df = pd.read_csv(path, sep=';', skiprows=TITLE_LINES, decimal=decimal or '.', thousands=thousands or None,
                     usecols=list(layout.source_column), dtype=texts, encoding='utf-8')
    df = df.rename(columns=dict(zip(layout.source_column, layout.sdm_column)))
    for _, c in layout[layout.date_format != ''].iterrows():
        df[c.sdm_column] = pd.to_datetime(df[c.sdm_column], format=DATE_FORMATS[c.date_format])
    for c in NUMBER_COLUMNS[sdm_type]:
        if c not in df:
            df[c] = float('nan')
    df['line'] = df.index + TITLE_LINES + 2  # 1-based, after the title lines and the header
    df['file'] = os.path.basename(path)
    return df


def code_map(mappings: str, name: str) -> pd.Series:
    """source_code -> target_code of a master code mapping, keyed case-insensitively."""
    m = pd.read_csv(os.path.join(mappings, f'{name}.csv'), dtype=str)
    return pd.Series(m.target_code.values, index=m.source_code.str.strip().str.lower())


def fx_evidence(fx_dir: str, period_end: pd.Timestamp) -> pd.DataFrame:
    """Per currency: the latest independent rate on or before the period end, its date, source, age and status text."""
    rates = pd.concat([pd.read_csv(f, dtype={'currency': str, 'source': str}) for f in sorted(glob.glob(os.path.join(fx_dir, '*.csv')))])
    rates['rate_date'] = pd.to_datetime(rates.rate_date)
    rates = rates[rates.rate_date <= period_end].sort_values('rate_date').groupby('currency').tail(1).set_index('currency')
    age = (period_end - rates.rate_date).dt.days
    rates['status'] = [f'STALE RATE: {a} days before the period end (limit {FX_MAX_AGE_DAYS})' if a > FX_MAX_AGE_DAYS
                       else f'current: {a} day(s) before the period end' for a in age]
    return rates


def column(s: pd.Series) -> list:
    """A column as Python values for xlsxwriter: None for missing, datetime for dates."""
    if pd.api.types.is_datetime64_any_dtype(s):
        return [None if pd.isna(v) else v for v in s.dt.to_pydatetime()]
    return s.astype(object).where(s.notna(), None).tolist()


def table(wb, name: str, header: list, rows, widths: list, formats: list, bold) -> None:
    """A sheet: bold frozen header, widths and column formats, then the rows."""
    ws = wb.add_worksheet(name)
    ws.freeze_panes(1, 0)
    for i, (w, f) in enumerate(zip(widths, formats)):
        ws.set_column(i, i, w, f)
    ws.write_row(0, 0, header, bold)
    r = 0
    for r, row in enumerate(rows, 1):
        ws.write_row(r, 0, row)
    return ws, r


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument('holdings')
    ap.add_argument('out')
    ap.add_argument('--tb', default=os.path.join(TPA, 'inputs', 'MFS_TB_S000013795_20230331.csv'))
    ap.add_argument('--mappings', default=os.path.join(TPA, 'mappings'))
    ap.add_argument('--fx', default=os.path.join(ROOT, 'fixtures', 'fx'))
    a = ap.parse_args()
    t0 = time.process_time()

    # 1-2: read by the layout, map the codes
    h = read_delivery(a.holdings, layout_of(a.mappings, 'holdings'), 'holdings')
    instruments = code_map(a.mappings, 'instrument_mapping')
    h['standard_instrument'] = h.instrument_type.str.strip().str.lower().map(instruments)
    tb = read_delivery(a.tb, layout_of(a.mappings, 'trial_balance'), 'trial_balance')
    tb['standard_account'] = tb.account_code.str.strip().str.lower().map(code_map(a.mappings, 'account_mapping'))
    period_end = h.as_of.max()

    # 3: lineage and evidence per position (texts made per distinct value, then mapped)
    pairs = h[['instrument_type', 'standard_instrument']].drop_duplicates()
    applied = {(t, s): f"instrument_mapping meridian_fund_services_instrument_mapping v1: '{t}' -> {s if isinstance(s, str) else '(unmapped)'}; "
               'file_layout meridian_fund_services_file_layout v1: holdings columns' for t, s in pairs.itertuples(index=False)}
    h['mapping_applied'] = [applied[k] for k in zip(h.instrument_type, h.standard_instrument)]
    fx = fx_evidence(a.fx, period_end)
    currency = h.price_currency.fillna(FUND_CURRENCY).str.upper()
    foreign = currency != FUND_CURRENCY
    ev = fx.reindex(currency.values).set_index(h.index)
    h['independent_rate'] = ev.units_per_usd.where(foreign)
    h['rate_date'] = ev.rate_date.where(foreign)
    h['rate_source'] = ev.source.where(foreign)
    h['fx_status'] = ev.status.where(foreign, 'fund currency').fillna('NOT PERFORMED: no independent rate on or before the period end')
    h['independent_price'] = float('nan')
    h['price_date'] = pd.NaT
    h['price_source'] = 'no independent price'
    h['standard_shown'] = h.standard_instrument.fillna('(unmapped)')

    # 4: per security, totals, against the trial balance
    positions = (h.groupby(['security_id', 'security_name', 'standard_shown'], dropna=False, sort=True)
                 .agg(rows=('quantity', 'size'), quantity=('quantity', 'sum'), market_value_local=('market_value_local', 'sum'),
                      market_value_base=('market_value_base', 'sum'))
                 .reset_index())
    derivative = h.standard_instrument == 'DERIVATIVE'
    totals = {'investments': h.market_value_base[~derivative].sum(), 'derivatives': h.market_value_base[derivative].sum()}
    tb_by = tb.groupby('standard_account').balance_base.sum()
    tb_totals = {'investments': tb_by.get('INVESTMENTS_AT_VALUE', 0.0),
                 'derivatives': tb_by.get('DERIVATIVES_ASSET', 0.0) + tb_by.get('DERIVATIVES_LIABILITY', 0.0)}
    recon = pd.DataFrame({'holdings': totals, 'trial_balance': tb_totals})
    recon['difference'] = (recon.holdings - recon.trial_balance).round(2)
    by_instrument = h.groupby('standard_shown').market_value_base.agg(['size', 'sum']).reset_index()

    # 5: the work paper
    wb = xlsxwriter.Workbook(a.out, {'constant_memory': True, 'default_date_format': FMT['date']})
    bold = wb.add_format({'bold': True})
    fmt = {k: wb.add_format({'num_format': v}) for k, v in FMT.items()}
    f = lambda k: fmt[k] if k else None  # noqa: E731
    total_base = round(h.market_value_base.sum(), 2)
    summary = [
        ['Fund', 'Goldman Sachs Bond Fund'], ['Fund code', h.fund_code.iloc[0]], ['Administrator', 'Meridian Fund Services'],
        ['Period end', period_end.to_pydatetime()], ['Currency', FUND_CURRENCY],
        ['Holdings', f'{len(h)} position(s)', None, total_base, None, None, None, 'Market value (base) of every position: sheet Holdings'],
        *[[f'Investments reconciliation: {k}', None, None, r.holdings, 'PASS' if abs(r.difference) < 0.01 else 'FAIL', r.difference, 0.01]
          for k, r in recon.iterrows()],
        ['Generated at', dt.datetime.now()],
    ]
    table(wb, 'Summary', ['Item', 'Value', '% of NAV', 'Amount', 'Status', 'Difference', 'Threshold', 'Message'], summary,
          [34, 40, 12, 18, 10, 18, 18, 90], [None, None, None, fmt['money'], None, fmt['money'], fmt['money'], None], bold)
    tb_cols = ['account_code', 'account_name', 'standard_account', 'currency', 'balance_local', 'balance_base', 'file', 'line']
    table(wb, 'Trial balance', ['Account code', 'Account name', 'Standard account', 'Currency', 'Balance local', f'Balance ({FUND_CURRENCY})', 'File', 'Line'],
          zip(*[column(tb[c]) for c in tb_cols]), [16, 44, 26, 10, 20, 20, 44, 8], [None] * 4 + [fmt['money']] * 2 + [None, fmt['int']], bold)
    sdm = ['security_id', 'id_type', 'security_name', 'instrument_type', 'standard_shown', 'quantity', 'price', 'price_currency',
           'fx_rate', 'market_value_local', 'market_value_base', 'cost_base', 'accrued_income_base', 'country', 'as_of', 'file',
           'line', 'mapping_applied', 'independent_price', 'price_date', 'price_source', 'independent_rate', 'rate_date',
           'rate_source', 'fx_status']
    ws, last = table(wb, 'Holdings', [c[0] for c in HOLDINGS], zip(*[column(h[c]) for c in sdm]), [c[1] for c in HOLDINGS],
                     [f(c[2]) for c in HOLDINGS], bold)
    ws.write_string(last + 2, 0, f'Total: {len(h)} position(s)', bold)
    ws.write_number(last + 2, 10, total_base, wb.add_format({'bold': True, 'num_format': FMT['money']}))
    inv = [[f'{k}: holdings against trial balance', None, r.holdings, r.trial_balance, r.difference] for k, r in recon.iterrows()]
    inv += [[None], ['Holdings by standard instrument type', 'Positions', 'Market value (base)']] + by_instrument.values.tolist()
    table(wb, 'Investments reconciliation', ['Item', 'Positions', 'Holdings (base)', 'Trial balance', 'Difference'], inv,
          [52, 12, 22, 22, 18], [None, fmt['int'], fmt['money'], fmt['money'], fmt['money']], bold)
    table(wb, 'Price testing', ['Security id', 'Name', 'Standard instrument', 'Positions', 'Quantity', 'Value local', 'Value base'],
          positions.values.tolist(), [20, 40, 18, 10, 16, 18, 18], [None, None, None, fmt['int'], fmt['price'], fmt['money'], fmt['money']], bold)
    table(wb, 'Capital roll-forward', ['Share class (shares)', 'Opening', 'Closing', 'Difference', 'Status'], [], [40, 20, 20, 18, 10],
          [None] + [fmt['price']] * 3 + [None], bold)
    differences = [[f'Investments reconciliation: {k}', None, r.difference] for k, r in recon.iterrows() if abs(r.difference) >= 0.01]
    table(wb, 'Unadjusted differences', ['Item', 'Description', 'Difference'], differences, [30, 40, 18], [None, None, fmt['money']], bold)
    unmapped = h[h.standard_instrument.isna()]
    exceptions = [['Unmapped instrument type', t, 'FAIL', None, f'line {ln}'] for t, ln in zip(unmapped.instrument_type, unmapped.line)]
    exceptions += [['Investments reconciliation', k, 'FAIL', r.difference, None] for k, r in recon.iterrows() if abs(r.difference) >= 0.01]
    table(wb, 'Exceptions', ['Check', 'Item', 'Status', 'Difference', 'Message'], exceptions or [['No exceptions']], [28, 36, 16, 18, 100],
          [None, None, None, fmt['money'], None], bold)
    wb.close()

    print(json.dumps({'rows': len(h), 'securities': len(positions), 'unmapped': len(unmapped),
                      'holdings': {k: round(v, 2) for k, v in totals.items()}, 'tb': {k: round(float(v), 2) for k, v in tb_totals.items()},
                      'cpuSeconds': round(time.process_time() - t0, 3)}))


if __name__ == '__main__':
    sys.exit(main())
