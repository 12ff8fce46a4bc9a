import { ApiFailure, Code, loginBody, registerBody, repasswordBody, resetPasswordBody } from '@swx/contract';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { identityMessage, phoneBody } from '../../features/identity/fields.tsx';
import en from '../../locales/en.json';
import { checkBody, refusalIssues, wordIssues } from './useContractForm.ts';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    lng: 'en',
    resources: { en: { translation: en } },
    interpolation: { escapeValue: false },
  });
});

/** The field errors a form shows for a body, with the identity forms' words. */
function errorsOf<F extends string>(
  schema: Parameters<typeof checkBody>[0],
  values: Record<F, string>,
  body: unknown,
) {
  const checked = checkBody(schema, body);
  const fields = Object.keys(values) as F[];
  return wordIssues(
    checked.ok ? [] : checked.issues,
    fields,
    (f, i, v) => identityMessage(i18n.t, f, i, v),
    values,
  );
}

describe('the contract form: the call schema decides, the form words', () => {
  it('words what the login schema refuses, field by field', () => {
    const values = { mode: 'name', userName: '   ', areaCode: '+44', phone: '', password: '' };
    expect(errorsOf(loginBody, values, { userName: values.userName, password: values.password })).toEqual({
      userName: 'Please enter your username or email.',
      password: 'Please enter your password.',
    });
  });

  it('checks a phone as the server does (E.164, trunk 0 dropped) and words an empty or bad one', () => {
    const form = (phone: string) => ({ mode: 'phone', areaCode: '+44', phone, password: 'pw' });
    const errors = (phone: string) =>
      errorsOf(loginBody, form(phone), { ...phoneBody(form(phone)), password: 'pw' });
    expect(errors('07700 900-123')).toEqual({});
    expect(errors('')).toEqual({ phone: 'Please enter your phone number.' });
    expect(errors('12')).toEqual({
      phone: 'Enter the number in digits: at most 15 digits with the area code.',
    });
  });

  it('words a short password, a bad code and a bad email on registration; a good body passes trimmed', () => {
    const values = { userName: 'ann', email: 'not-mail', password: 'short', password2: 'short', code: '12' };
    expect(errorsOf(registerBody, values, values)).toEqual({
      email: 'The email address format is wrong.',
      password: 'The password needs at least 8 characters.',
      code: 'The code has 6 digits.',
    });
    const good = {
      userName: ' ann ',
      email: 'ann@example.com',
      password: 'long enough',
      password2: 'x',
      code: ' 123456 ',
    };
    expect(checkBody(registerBody, good)).toEqual({
      ok: true,
      body: {
        userName: 'ann',
        email: 'ann@example.com',
        password: 'long enough',
        password2: 'x',
        code: '123456',
      },
    });
  });

  it('leaves to the server what the form does not word (a password over 128 characters)', () => {
    const values = { oldPassword: 'x', password: 'p'.repeat(129), password2: 'p'.repeat(129) };
    const checked = checkBody(repasswordBody, values);
    expect(checked.ok).toBe(false);
    expect(errorsOf(repasswordBody, values, values)).toEqual({});
  });

  it("puts a 10026 answer's issues on the fields, and nothing of another refusal", () => {
    const refusal = new ApiFailure(Code.INVALID_INPUT, 'Some of the information entered is not valid.', [
      { path: 'password2', issue: 'mismatch' },
      { path: 'email', issue: 'invalid_format' },
      { path: 'header.virtually', issue: 'control_character' },
      'not an issue',
    ]);
    const values = { email: 'a@b', code: '', password: 'long enough', password2: 'other' };
    const fields = Object.keys(values) as (keyof typeof values)[];
    expect(
      wordIssues(refusalIssues(refusal), fields, (f, i, v) => identityMessage(i18n.t, f, i, v), values),
    ).toEqual({
      password2: 'The two passwords do not match.',
      email: 'The email address format is wrong.',
    });
    expect(refusalIssues(new ApiFailure(Code.WRONG_PASSWORD, 'Wrong password', null))).toEqual([]);
    expect(
      checkBody(resetPasswordBody, {
        email: 'a@b.co',
        code: '123456',
        password: 'long enough',
        password2: '',
      }).ok,
    ).toBe(true);
  });
});
