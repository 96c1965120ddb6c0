/** exceljs' internal helpers (no typings of their own): the date rules its readers apply. */
declare module 'exceljs/lib/utils/utils.js' {
  const utils: {
    excelToDate(v: number, date1904: boolean): Date;
    isDateFmt(fmt: string | undefined): boolean;
  };
  export default utils;
}
