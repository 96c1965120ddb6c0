/** Identifiers such as `demo_test_account_mapping` shown in narrow columns: they may break after each underscore. */
import { Fragment, type ReactNode } from 'react';

/** The name with a line-break opportunity (`<wbr>`) after each underscore; its text is unchanged. */
export function breakableName(name: string): ReactNode {
  const parts = name.split('_');
  if (parts.length === 1) return name;
  return parts.map((p, i) => (
    // the parts of one fixed string, never reordered: their index is their key
    <Fragment key={i}>
      {p}
      {i < parts.length - 1 && (
        <>
          _<wbr />
        </>
      )}
    </Fragment>
  ));
}
