//! The account service as the pages' backend.

use super::{Accounts, Signed};
use app::api::backend::{BoxFuture, Caller};
use app::api::CommandError;
use app::protocol::{BrowserToken, Session};

/// The account service as the pages' [`AccountBackend`]: every answer
/// carries the browser's new token as a cookie.
///
/// [`AccountBackend`]: app::accounts::backend::AccountBackend
#[derive(Clone)]
pub struct AccountPages {
    pub accounts: Accounts,
    pub cookie_max_age_secs: u64,
    pub secure_cookies: bool,
}

impl AccountPages {
    fn signed(&self, signed: Signed) -> app::accounts::backend::Signed {
        app::accounts::backend::Signed {
            account: signed.account,
            set_cookie: crate::session::session_cookie(
                signed.token,
                self.cookie_max_age_secs,
                self.secure_cookies,
            ),
        }
    }
}

impl app::accounts::backend::AccountBackend for AccountPages {
    fn sign_up<'a>(
        &'a self,
        caller: &'a Caller,
        name: &'a str,
        password: &'a str,
    ) -> BoxFuture<'a, Result<app::accounts::backend::Signed, CommandError>> {
        Box::pin(async move {
            let signed = self.accounts.sign_up(caller, name, password).await?;
            Ok(self.signed(signed))
        })
    }

    fn sign_in<'a>(
        &'a self,
        caller: &'a Caller,
        name: &'a str,
        password: &'a str,
    ) -> BoxFuture<'a, Result<app::accounts::backend::Signed, CommandError>> {
        Box::pin(async move {
            let signed = self.accounts.sign_in(caller, name, password).await?;
            Ok(self.signed(signed))
        })
    }

    fn sign_out<'a>(
        &'a self,
        browser: &'a BrowserToken,
    ) -> BoxFuture<'a, Result<app::accounts::backend::Signed, CommandError>> {
        Box::pin(async move {
            let signed = self.accounts.sign_out(&browser.0).await?;
            Ok(self.signed(signed))
        })
    }

    fn sign_out_everywhere<'a>(
        &'a self,
        session: &'a Session,
    ) -> BoxFuture<'a, Result<app::accounts::backend::Signed, CommandError>> {
        Box::pin(async move {
            let signed = self.accounts.sign_out_everywhere(session).await?;
            Ok(self.signed(signed))
        })
    }

    fn change_password<'a>(
        &'a self,
        caller: &'a Caller,
        current: &'a str,
        new: &'a str,
    ) -> BoxFuture<'a, Result<app::accounts::backend::Signed, CommandError>> {
        Box::pin(async move {
            let signed = self.accounts.change_password(caller, current, new).await?;
            Ok(self.signed(signed))
        })
    }

    fn report<'a>(
        &'a self,
        caller: &'a Caller,
        report: &'a app::accounts::Report,
    ) -> BoxFuture<'a, Result<(), CommandError>> {
        Box::pin(self.accounts.report(caller, report))
    }

    fn delete_account<'a>(
        &'a self,
        caller: &'a Caller,
        password: &'a str,
    ) -> BoxFuture<'a, Result<app::accounts::backend::Signed, CommandError>> {
        Box::pin(async move {
            let signed = self.accounts.delete_account(caller, password).await?;
            Ok(self.signed(signed))
        })
    }
}
