//! The account service as the pages' backend.

use super::{Accounts, Signed};
use app::api::backend::Caller;
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

#[async_trait::async_trait]
impl app::accounts::backend::AccountBackend for AccountPages {
    async fn sign_up(
        &self,
        caller: &Caller,
        name: &str,
        password: &str,
    ) -> Result<app::accounts::backend::Signed, CommandError> {
        let signed = self.accounts.sign_up(caller, name, password).await?;
        Ok(self.signed(signed))
    }

    async fn sign_in(
        &self,
        caller: &Caller,
        name: &str,
        password: &str,
    ) -> Result<app::accounts::backend::Signed, CommandError> {
        let signed = self.accounts.sign_in(caller, name, password).await?;
        Ok(self.signed(signed))
    }

    async fn sign_out(
        &self,
        browser: &BrowserToken,
    ) -> Result<app::accounts::backend::Signed, CommandError> {
        let signed = self.accounts.sign_out(&browser.0).await?;
        Ok(self.signed(signed))
    }

    async fn sign_out_everywhere(
        &self,
        session: &Session,
    ) -> Result<app::accounts::backend::Signed, CommandError> {
        let signed = self.accounts.sign_out_everywhere(session).await?;
        Ok(self.signed(signed))
    }

    async fn change_password(
        &self,
        caller: &Caller,
        current: &str,
        new: &str,
    ) -> Result<app::accounts::backend::Signed, CommandError> {
        let signed = self.accounts.change_password(caller, current, new).await?;
        Ok(self.signed(signed))
    }

    async fn report(
        &self,
        caller: &Caller,
        report: &app::accounts::Report,
    ) -> Result<(), CommandError> {
        self.accounts.report(caller, report).await
    }

    async fn delete_account(
        &self,
        caller: &Caller,
        password: &str,
    ) -> Result<app::accounts::backend::Signed, CommandError> {
        let signed = self.accounts.delete_account(caller, password).await?;
        Ok(self.signed(signed))
    }
}
