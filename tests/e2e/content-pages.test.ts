import { describe, expect, it } from 'vitest';
import { customerApi } from '../support/api.ts';
import { expectAccessible, screenshotTo } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { pngImage } from '../support/images.ts';
import { ContentPage, HelpEditorPage } from '../support/pages/index.ts';

const app = useApp({ staff: { email: 'pages.editor@swx.test', role: 'support' } });

const EN_IMAGE = 'How the demo and live books are kept apart';
const AR_IMAGE = 'كيف يُفصل دفتر التجربة عن الدفتر الحقيقي';

/** Has the image of that description loaded (its file served and decoded)? */
const loaded = (page: ContentPage, description: string) =>
  page.prose
    .getByRole('img', { name: description })
    .evaluate((node) => (node as HTMLImageElement).complete && (node as HTMLImageElement).naturalWidth > 0);

describe('the terms page on the staff editor', () => {
  it('staff edit the terms with an image in English and Arabic, preview both widths, publish; customers read it in English and Arabic', async () => {
    const { page: p, errors, context } = await app.staffPage('desktop', { width: 1280 });
    const editor = new HelpEditorPage(p);
    await editor.openPage('Terms of service');
    await editor.writeWithImage(
      'English',
      { title: 'Terms of service', body: '## In short\n\nEvery fee is shown **before** you confirm.' },
      { description: EN_IMAGE, png: await pngImage(640, 320, 3) },
    );
    await editor.previewImage(EN_IMAGE);
    // The page's settings are filled in the preview, as customers will read it: no {…} left.
    await expect.poll(() => p.getByTestId('help-preview').innerText()).toContain('In short');
    expect(await p.getByTestId('help-preview').innerText()).not.toMatch(/[{}]/);
    await expectAccessible(p, 'desktop /admin/help/:id, a page');
    await screenshotTo(p, 'pages-admin-editor-1280-en');
    await p.getByRole('button', { name: 'Phone (390 px)' }).click();
    await editor.previewImage(EN_IMAGE);
    await screenshotTo(p, 'pages-admin-preview-390-en');

    // The Arabic text's image by keyboard alone: description, file, save.
    const met = await editor.writeWithImageByKeyboard(
      'العربية',
      { title: 'شروط الخدمة', body: '## باختصار\n\nتظهر كل رسوم **قبل** أن تؤكد.' },
      { description: AR_IMAGE, png: await pngImage(640, 320, 6) },
    );
    expect(met).toEqual([
      'Image description',
      'Image file (JPG, PNG or JPEG 2000, up to 2 MB)',
      'Save draft',
    ]);
    await p.getByRole('button', { name: 'Phone (390 px)' }).click();
    await editor.previewImage(AR_IMAGE);
    await screenshotTo(p, 'pages-admin-preview-390-ar');
    await editor.publish();
    await expect
      .poll(async () => (await editor.rows('help-revisions')).join('\n'))
      .toMatch(/Published · العربية/);
    expect(errors).toEqual([]);
    await context.close();

    const terms = (await customerApi(app.server).ok('listContents', { type: 2 })).find(
      (item) => item.slug === 'terms',
    );
    const english = await app.signedIn('desktop', 'terms.reader@example.com', { width: 1280, quiet: true });
    const enPage = new ContentPage(english.page);
    await enPage.goto(`/detail?id=${terms?.id}`);
    await enPage.prose.getByRole('heading', { name: 'In short' }).waitFor();
    await expect.poll(() => loaded(enPage, EN_IMAGE)).toBe(true);
    await expectAccessible(english.page, 'desktop /detail, terms with an image');
    await screenshotTo(english.page, 'pages-terms-1280-en');
    expect(english.errors).toEqual([]);
    await english.context.close();
    const phone = await app.open('mobile', { quiet: true });
    const phonePage = new ContentPage(phone.page);
    await phonePage.goto(`/detail?id=${terms?.id}`);
    await expect.poll(() => loaded(phonePage, EN_IMAGE)).toBe(true);
    expect(await phonePage.overflow()).toBeLessThanOrEqual(0);
    await screenshotTo(phone.page, 'pages-terms-390-en');
    await phone.context.close();

    // A visitor on a phone, in Arabic: the Arabic text and its image, right to left.
    const arabic = await app.open('mobile', { language: 'ar', quiet: true });
    const arPage = new ContentPage(arabic.page);
    await arPage.goto(`/detail?id=${terms?.id}`);
    await arPage.prose.getByRole('heading', { name: 'باختصار' }).waitFor();
    await expect.poll(() => loaded(arPage, AR_IMAGE)).toBe(true);
    expect(await arabic.page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await arPage.overflow()).toBeLessThanOrEqual(0);
    await expectAccessible(arabic.page, 'mobile /detail, Arabic terms with an image');
    await screenshotTo(arabic.page, 'pages-terms-390-ar');
    expect(arabic.errors).toEqual([]);
    await arabic.context.close();
  }, 300_000);
});
