import puppeteer from 'puppeteer-core';
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox','--disable-gpu'] });
for (const route of process.argv.slice(2)) {
  const page = await browser.newPage();
  await page.setUserAgent('Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36');
  await page.setViewport({ width: 412, height: 823, isMobile: true, hasTouch: true });
  await page.goto('http://127.0.0.1:19400/robots.txt');
  await page.evaluate(() => sessionStorage.setItem('welcomeShown', '1'));
  const t0 = Date.now(); const seen = [];
  page.on('request', (r) => seen.push(`${Date.now() - t0} ${r.url().replace('http://127.0.0.1:19400', '')}`));
  page.on('console', (m) => console.log('console', m.type(), m.text()));
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  await page.goto(`http://127.0.0.1:19400${route}`, { waitUntil: 'networkidle0' });
  await new Promise((r) => setTimeout(r, 3500));
  console.log('==', route); console.log(seen.filter((l) => !l.includes('/message')).join('\n'));
  await page.close();
}
await browser.close();
