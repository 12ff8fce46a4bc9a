import type { Locator } from 'playwright-core';
import { BackOffice } from './back-office.ts';

/** The staff screen: create an account (its one-time password once), change a role, disable. */
export class StaffPage extends BackOffice {
  readonly oneTimePassword = this.page.getByTestId('one-time-password');

  async create(email: string, role: string): Promise<string> {
    await this.page.getByLabel('Email', { exact: true }).fill(email);
    await this.page.getByLabel('Role', { exact: true }).selectOption(role);
    await this.page.getByRole('button', { name: 'Create account' }).click();
    return this.oneTimePassword.innerText();
  }

  async passedOn(): Promise<void> {
    await this.page.getByRole('button', { name: 'I have passed it on' }).click();
  }

  /** Picks a new role and asks to change it; the confirmation asks `question`. */
  async changeRole(email: string, role: string, question: string): Promise<void> {
    await this.page.getByLabel(`Role of ${email}`).selectOption(role);
    await this.page.getByRole('button', { name: `Change role ${email}` }).click();
    await this.page.getByText(question, { exact: false }).waitFor();
    await this.confirm();
  }

  disableButton(email: string): Locator {
    return this.page.getByRole('button', { name: `Disable ${email}` });
  }

  async disable(email: string): Promise<void> {
    await this.disableButton(email).click();
    await this.confirm();
  }

  async confirm(): Promise<void> {
    await this.page.getByRole('button', { name: 'Confirm' }).click();
  }
}
