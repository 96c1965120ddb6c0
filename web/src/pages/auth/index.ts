/** Sign-in area pages (one lazily loaded chunk). */
export { RedeemPage } from './redeem-page';
export { LoginPage } from './login-page';
export { AuthenticatePage, UnauthorizedPage, SignupPage, NotFoundPage } from './message-pages';
export { SignInBlockedPage } from './sign-in-blocked-page';
