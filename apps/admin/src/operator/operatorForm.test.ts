import type { OperatorSettingsRecord } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { StaffApiError } from '../api.ts';
import en from './locales/en.json';
import { checkForm, formOf, inputIndex, serverErrors } from './operatorForm.ts';

const record = (settings: Partial<OperatorSettingsRecord['settings']>): OperatorSettingsRecord =>
  ({
    settings: { leaders: [], partners: [], social: [], ...settings },
    updatedAt: null,
    updatedBy: null,
  }) as unknown as OperatorSettingsRecord;

describe('the operator settings form', () => {
  it('shows a document with nothing set as blank fields, and checks back to an empty document', () => {
    const form = formOf(record({}));
    expect(form.companyName).toBe('');
    expect(form.supportHours.en).toBe('');
    expect(form.social).toEqual({ x: '', telegram: '', facebook: '', youtube: '' });
    const checked = checkForm(form, en);
    expect(checked.ok).toBe(true);
  });

  it('names a field the contract refuses by its path, in the screen’s words', () => {
    const form = { ...formOf(record({})), companyName: 'SWX Ltd', supportEmail: 'not an email' };
    const checked = checkForm(form, en);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.errors.supportEmail).toBe(en.errors.email);
  });

  it('finds a social link by its place among the filled ones (for its error)', () => {
    const form = formOf(record({}));
    form.social.telegram = 'https://t.me/swx';
    form.social.youtube = 'https://youtube.com/@swx';
    expect(inputIndex(form, 'x')).toBeNull();
    expect(inputIndex(form, 'telegram')).toBe(0);
    expect(inputIndex(form, 'youtube')).toBe(1);
  });

  it('reads the server’s field issues (10026) and nothing else', () => {
    const refused = new StaffApiError(10026, '', [{ path: 'registerUrl', issue: 'too_big' }]);
    expect(serverErrors(refused, en)).toEqual({ registerUrl: en.errors.tooLong });
    expect(serverErrors(new StaffApiError(10002, 'no'), en)).toBeNull();
    expect(serverErrors(new Error('network'), en)).toBeNull();
  });
});
