"""
Comparator for bench/throughput.bench.ts: what Fund Audit does with a Meridian holdings delivery,
written as an idiomatic pandas script.

  python holdings.py HOLDINGS.csv OUT.xlsx [--tb TB.csv] [--mappings DIR]

1. Reads the TPA's holdings CSV with its file layout (fixtures/tpas/meridian_fund_services/
   mappings/file_layout.csv): semicolon delimiter, decimal comma and thousands dot per number
   column, DD/MM/YYYY dates, and the 3 title lines above the header; source columns are renamed
   to SDM columns.
2. Maps `Asset Class` codes through the master instrument mapping (standard_instrument) and the
   trial balance's GL accounts through the account mapping (standard_account).
3. Sums per security (quantity, market value local / base) and in total, split into derivatives
   (standard instrument DERIVATIVE) and other investments.
4. Compares the totals with the trial balance (INVESTMENTS_AT_VALUE; DERIVATIVES_ASSET +
   DERIVATIVES_LIABILITY), as the product's investments reconciliation does.
5. Writes the positions per security to xlsx (openpyxl) and prints one JSON line of results.

Environment: the bench runs this in its own virtual environment (bench/results/pandas-venv, git
ignored) made with `python3 -m venv --system-site-packages` by Debian's /usr/bin/python3. PyPI is
not reachable from the build machines; pandas, numpy and openpyxl come from Debian's packages
(python3-pandas, python3-openpyxl), which are installed into the system's site-packages, so the
venv must see the system site packages to import them. The venv keeps the run isolated from any
other interpreter on the machine (pyenv shims, user site packages) and lets pip-free tools be
added to it later without touching the system.
"""
import argparse
import json
import os
import sys
import time

import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
TPA = os.path.join(ROOT, 'fixtures', 'tpas', 'meridian_fund_services')
DATE_FORMATS = {'DD/MM/YYYY': '%d/%m/%Y', 'MM/DD/YYYY': '%m/%d/%Y', 'YYYY-MM-DD': '%Y-%m-%d', 'DD.MM.YYYY': '%d.%m.%Y', 'YYYYMMDD': '%Y%m%d'}
NUMBER_COLUMNS = {
    'holdings': ['quantity', 'price', 'fx_rate', 'market_value_local', 'market_value_base', 'cost_base', 'accrued_income_base'],
    'trial_balance': ['balance_local', 'balance_base'],
}
TITLE_LINES = 3


def layout_of(mappings: str, sdm_type: str) -> pd.DataFrame:
    """The layout rows (source column -> SDM column, formats) of one SDM type."""
    layout = pd.read_csv(os.path.join(mappings, 'file_layout.csv'), dtype=str, keep_default_na=False)
    return layout[layout.sdm_type == sdm_type]


def read_delivery(path: str, layout: pd.DataFrame, sdm_type: str) -> pd.DataFrame:
    """A delivered table read by its layout: SDM column names, numbers as floats, dates as datetime64."""
    numbers = layout[layout.sdm_column.isin(NUMBER_COLUMNS[sdm_type])]
    seps = numbers[['decimal_separator', 'thousands_separator']].drop_duplicates()
    assert len(seps) == 1, 'one number format per file'
    decimal, thousands = seps.iloc[0]
    converters = {s: str for s in layout.source_column[~layout.sdm_column.isin(NUMBER_COLUMNS[sdm_type])]}
    df = pd.read_csv(path, sep=';', skiprows=TITLE_LINES, decimal=decimal or '.', thousands=thousands or None,
                     usecols=list(layout.source_column), dtype=converters, encoding='utf-8')
    df = df.rename(columns=dict(zip(layout.source_column, layout.sdm_column)))
    for _, c in layout[layout.date_format != ''].iterrows():
        df[c.sdm_column] = pd.to_datetime(df[c.sdm_column], format=DATE_FORMATS[c.date_format])
    return df


def code_map(mappings: str, name: str) -> pd.Series:
    """source_code -> target_code of a master code mapping, keyed case-insensitively."""
    m = pd.read_csv(os.path.join(mappings, f'{name}.csv'), dtype=str)
    return pd.Series(m.target_code.values, index=m.source_code.str.strip().str.lower())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument('holdings')
    ap.add_argument('out')
    ap.add_argument('--tb', default=os.path.join(TPA, 'inputs', 'MFS_TB_S000013795_20230331.csv'))
    ap.add_argument('--mappings', default=os.path.join(TPA, 'mappings'))
    a = ap.parse_args()
    t0 = time.process_time()

    h = read_delivery(a.holdings, layout_of(a.mappings, 'holdings'), 'holdings')
    h['standard_instrument'] = h.instrument_type.str.strip().str.lower().map(code_map(a.mappings, 'instrument_mapping'))
    tb = read_delivery(a.tb, layout_of(a.mappings, 'trial_balance'), 'trial_balance')
    tb['standard_account'] = tb.account_code.str.strip().str.lower().map(code_map(a.mappings, 'account_mapping'))

    positions = (h.groupby(['security_id', 'security_name', 'standard_instrument'], dropna=False, sort=True)
                 .agg(rows=('quantity', 'size'), quantity=('quantity', 'sum'), market_value_local=('market_value_local', 'sum'),
                      market_value_base=('market_value_base', 'sum'))
                 .reset_index())
    derivative = h.standard_instrument == 'DERIVATIVE'
    totals = {'investments': h.market_value_base[~derivative].sum(), 'derivatives': h.market_value_base[derivative].sum()}
    tb_by = tb.groupby('standard_account').balance_base.sum()
    tb_totals = {'investments': tb_by.get('INVESTMENTS_AT_VALUE', 0.0),
                 'derivatives': tb_by.get('DERIVATIVES_ASSET', 0.0) + tb_by.get('DERIVATIVES_LIABILITY', 0.0)}
    reconciliation = pd.DataFrame({'holdings': totals, 'trial_balance': tb_totals})
    reconciliation['difference'] = (reconciliation.holdings - reconciliation.trial_balance).round(2)

    with pd.ExcelWriter(a.out, engine='openpyxl') as xw:
        positions.to_excel(xw, sheet_name='Positions', index=False)
        reconciliation.to_excel(xw, sheet_name='Reconciliation')

    print(json.dumps({'rows': len(h), 'securities': len(positions), 'unmapped': int(h.standard_instrument.isna().sum()),
                      'holdings': {k: round(v, 2) for k, v in totals.items()}, 'tb': {k: round(float(v), 2) for k, v in tb_totals.items()},
                      'cpuSeconds': round(time.process_time() - t0, 3)}))


if __name__ == '__main__':
    sys.exit(main())
