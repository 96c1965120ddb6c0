/** Text of the privacy notice: what is collected, optional analytics, retention, who has access. */
export function PrivacyContent() {
  return (
    <div className="fa-privacy-text">
      <p>
        This notice explains what Fund Audit records about you while you use it, why, for how long, and who can see it. Please read it to the end; you can
        accept it once you have scrolled to the bottom.
      </p>
      <h3>What we collect</h3>
      <ul>
        <li>Your identity as given by your sign-in: user name, e-mail address, first and last name, and your role.</li>
        <li>Sign-in records: when you sign in and out, and the privacy notice version you accepted.</li>
        <li>
          An audit trail of your actions on fund requests: requests you create, edit, open, close, issue, pause, decline, delete or rerun; comments and
          recipients you change; mappings you create or remove.
        </li>
        <li>Files you upload (fund request templates, input files, mappings, PowerBI inputs) and the downloads you request.</li>
        <li>Technical logs needed to run and secure the service, such as request times and error reports.</li>
      </ul>
      <p>
        This information is used to provide the service, to show your colleagues who did what on a fund request, to investigate problems, and to meet the audit
        firm's record-keeping duties. It is not sold or used for advertising.
      </p>
      <h3>Analytics (optional)</h3>
      <p>
        Where analytics are switched on for this installation, the pages you visit and the features you use are recorded to understand how the product is used
        and to improve it. Analytics data does not include the contents of fund requests or files. Installations without analytics do not record this
        information.
      </p>
      <h3>How long we keep it</h3>
      <ul>
        <li>Personal data and the audit trail are kept for 2 years, then deleted.</li>
        <li>Analytics data is kept for 37 months, plus 90 days in an archive, then deleted.</li>
      </ul>
      <h3>Who has access</h3>
      <ul>
        <li>Developers, platform engineering and operations: full administrative access, to run and support the service.</li>
        <li>Audit teams: read, edit and delete access to the fund requests and files they work on.</li>
      </ul>
      <h3>Your choices</h3>
      <p>
        You may reject this notice; you will then not be able to use Fund Audit. To ask about the data held about you, or to have it corrected or deleted,
        contact your Fund Audit administrator.
      </p>
      <p>When this notice changes, you will be asked to read and accept it again.</p>
    </div>
  );
}
