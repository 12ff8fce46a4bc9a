import { PageModel } from './page-model.ts';

/** /pass/register: by email (a mailed code) or by phone (an SMS code). */
export class RegisterPage extends PageModel {
  readonly userName = this.page.getByLabel('Username or email');
  readonly areaCode = this.page.getByLabel('Area code');
  readonly phoneNumber = this.page.getByLabel('Phone number');
  readonly code = this.page.getByLabel('Verification code');
  readonly password = this.page.getByLabel('Password', { exact: true });
  readonly repeatPassword = this.page.getByLabel('Repeat password');
  readonly inviteCode = this.page.getByLabel('Invite code (optional)');
  readonly sendCodeButton = this.page.getByRole('button', { name: 'Send code' });
  readonly createButton = this.page.getByRole('button', { name: 'Create account' });

  async goto(): Promise<void> {
    await this.page.goto('/pass/register');
  }

  /** Asks for a code and waits until the page says where it went (`to`: the address or number). */
  async sendCode(to: string): Promise<void> {
    await this.sendCodeButton.click();
    await this.page.getByRole('status').filter({ hasText: to }).waitFor();
  }

  /** Fills the code and the password twice, and creates the account. */
  async create(code: string, password: string, repeat = password): Promise<void> {
    await this.code.fill(code);
    await this.password.fill(password);
    await this.repeatPassword.fill(repeat);
    await this.createButton.click();
  }

  /** The whole registration by email, the code read from the mail (`codeFor`); ends on /profile. */
  async registerByEmail(email: string, password: string, codeFor: (email: string) => Promise<string>) {
    await this.goto();
    await this.completeByEmail(email, password, codeFor);
  }

  /** The registration by email on the form as it is open (an invite link's, say); ends on /profile. */
  async completeByEmail(email: string, password: string, codeFor: (email: string) => Promise<string>) {
    await this.userName.fill(email);
    await this.sendCode(email);
    await this.create(await codeFor(email), password);
    await this.waitForPath('/profile');
  }

  async usePhone(): Promise<void> {
    await this.page.getByRole('radio', { name: 'Phone' }).check();
    await this.areaCode.waitFor();
  }

  async enterPhone(areaCode: string, number: string): Promise<void> {
    await this.areaCode.selectOption(areaCode);
    await this.phoneNumber.fill(number);
  }
}
