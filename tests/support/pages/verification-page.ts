import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

export type Photo = { name: string; mimeType: string; buffer: Buffer };

/** /profile/verification: the identity verification (KYC) form, its photos and its state. */
export class VerificationPage extends PageModel {
  readonly state = this.page.getByTestId('kyc-state');
  readonly country = this.page.getByLabel('Country', { exact: true });
  readonly areaCode = this.page.getByLabel('Area code');
  readonly phone = this.page.getByLabel('Phone number');
  readonly submitButton = this.page.getByRole('button', { name: 'Submit for review' });
  readonly previews = this.page.locator('.photo-preview img');
  /** The mark of each photo the server took (an image input uploads its photo as soon as it is chosen). */
  readonly uploaded = this.page.getByText('Uploaded and checked.');

  async goto(): Promise<void> {
    await this.page.goto('/profile/verification');
  }

  async fillPerson(person: {
    firstName: string;
    lastName: string;
    birthdate: string;
    sex: 'Female' | 'Male';
    country: string;
    address: string;
    areaCode: string;
    phone: string;
    document: 'Passport' | 'ID card' | 'Driving licence';
  }): Promise<void> {
    await this.page.getByLabel('First name').fill(person.firstName);
    await this.page.getByLabel('Last name').fill(person.lastName);
    await this.page.getByLabel('Date of birth').fill(person.birthdate);
    await this.page.getByRole('radio', { name: person.sex }).check();
    await this.country.selectOption(person.country);
    await this.page.getByLabel('Address').fill(person.address);
    await this.areaCode.selectOption(person.areaCode);
    await this.phone.fill(person.phone);
    await this.page.getByRole('radio', { name: person.document }).check();
  }

  /**
   * Chooses a photo file in a slot's image input ('Front of the document', 'Back of the document',
   * 'You holding the document'); the input checks it and, when it passes, uploads it at once.
   */
  async attach(slot: string, photo: Photo): Promise<void> {
    await this.page.getByLabel(slot).setInputFiles(photo);
  }

  /** One slot's image input: its label, preview, progress, status and error. */
  photoInput(slot: string): Locator {
    return this.page.locator('.image-input').filter({ has: this.page.locator('label', { hasText: slot }) });
  }

  /** The upload progress of a slot's photo while it is being sent. */
  progress(slot: string): Locator {
    return this.page.getByRole('progressbar', { name: slot });
  }

  /** Chooses a photo and waits until the server took it (the slot is marked uploaded). */
  async upload(slot: string, photo: Photo): Promise<void> {
    await this.attach(slot, photo);
    await this.photoInput(slot).getByText('Uploaded and checked.').waitFor({ timeout: 30_000 });
  }

  async submit(): Promise<void> {
    await this.submitButton.click();
  }

  /** The phone fields of a resubmission: the number and the area code it was sent with. */
  resubmitPhone(): { number: Locator; code: Locator } {
    return {
      number: this.page.locator('input[name="phone"]'),
      code: this.page.locator('select[name="phoneCode"]'),
    };
  }
}
