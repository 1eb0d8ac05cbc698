import { describe, expect, it } from 'vitest';
import { Validator } from '../../src/validate/validator.ts';
import { configWithOnly, inTest, lint } from './harness.ts';

const RULE = 'no-hardcoded-credentials';
const lines = (code: string, options?: unknown) => lint(RULE, code, { options }).map((i) => i.line);
/** The source text each issue points at, up to the end of its literal. */
const flagged = (code: string) => lint(RULE, code).map((i) => /^(['"`]).*?\1/.exec(code.split('\n')[i.line - 1]!.slice(i.column - 1))?.[0]);

describe('no-hardcoded-credentials', () => {
  it('accepts secrets read from the environment, empty strings and non-secret fields', () => {
    expect(lines(inTest(`
  const password = process.env.E2E_PASSWORD ?? '';
  const apiKey = process.env.API_KEY!;
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').fill(process.env.E2E_PASSWORD || '');
  await page.getByTestId('password-input').fill('');
  await page.getByLabel('Email').fill('user@example.com');
  await page.getByTestId('search').fill('running shoes');
  const passwordLabel = 'Password';
  const passwordInput = page.getByLabel(passwordLabel);
  const author = 'Jane';
  const passengerName = 'Bob';
  await expect(passwordInput).toBeVisible();
  await page.getByTestId('token-help').click();`))).toEqual([]);
  });

  it('reports literals typed into password-like fields, at the literal', () => {
    const code = inTest(`
  await page.getByLabel('Password').fill('hunter2');
  await page.getByTestId('password-input').type('hunter2');
  await page.getByPlaceholder('Your API key').pressSequentially('sk-live-123');
  await page.getByRole('textbox', { name: /pin\\b/i }).fill('1234');
  await page.locator('#pwd').fill('s3cret');
  await page.fill('input[name=password]', 'hunter2');`);
    const issues = lint(RULE, code);
    expect(issues.map((i) => i.line)).toEqual([5, 6, 7, 8, 9, 10]);
    expect(flagged(code)).toEqual([`'hunter2'`, `'hunter2'`, `'sk-live-123'`, `'1234'`, `'s3cret'`, `'hunter2'`]);
    expect(issues[0]).toMatchObject({ severity: 'error', fixable: false });
    expect(issues[0]!.message).toContain('process.env');
  });

  it('reports literals assigned to secret-like names: variables, properties, fields, defaults, arguments', () => {
    const code = `import { test } from '@playwright/test';

const ADMIN_PASSWORD = 'admin123';
const config = { apiKey: 'sk-test-1', 'x-api-key': 'abc', user: 'admin' };

class Session {
  private token = 'eyJhbGciOi';
  constructor() { this.secret = 'shh'; }
}

async function login(user: string, password: string) {}

test('x', async ({ request }) => {
  let authToken: string;
  authToken = \`Bearer abc\`;
  await request.post('/api/login', { data: { username: 'admin', password: 'pa55' } });
  await login('admin', 'letmein');
  const { pwd = 'fallback' } = {} as { pwd?: string };
});
`;
    expect(lines(code)).toEqual([3, 4, 4, 7, 8, 15, 16, 17, 18]);
  });

  it('reads a name as words whatever its digits, separators and case: the quick test of its letters rules none of these out', () => {
    const code = `import { test } from '@playwright/test';

const adminPassword2 = 'a1';
const API_KEY_1 = 'a2';
const api2_key = 'a3';
const userÉPassword = 'a4';
const pass1word = 'not a secret name';
const keyboard = 'not one either';
test('x', async () => {});
`;
    expect(lines(code)).toEqual([3, 4, 5, 6]);
  });

  it('names the declared variable whose role shares most words with the field or name, an acronym apart from the word after it', () => {
    const config = { ...configWithOnly(RULE), credentials: { username: 'E2E_USERNAME', password: 'E2E_PASSWORD', admin_password: 'E2E_ADMIN_PASSWORD' } };
    const code = inTest(`
  const ADMINPassword = 'a1';
  const userPassword = 'a2';
  await page.getByLabel('Admin password').fill('a3');
  await page.getByLabel('PIN').fill('a4');`);
    const messages = new Validator(config, { typeCheck: false }).validateText('/virtual/x.spec.ts', code).issues.map((i) => /process\.env\.(\w+)/.exec(i.message)?.[1]);
    expect(messages).toEqual(['E2E_ADMIN_PASSWORD', 'E2E_PASSWORD', 'E2E_ADMIN_PASSWORD', 'E2E_PASSWORD']);
  });

  it('matches secret words with digits of their own from critic.yaml', () => {
    const code = `import { test } from '@playwright/test';

const backup_2fa = '123456';
const twofa = '654321';
test('x', async () => {});
`;
    expect(lines(code, { secret_names: ['2fa'], field_patterns: ['password'] })).toEqual([3]);
  });

  it('reports a literal fallback of an environment read', () => {
    const code = inTest(`  const password = process.env.E2E_PASSWORD ?? 'hunter2';`);
    expect(flagged(code)).toEqual([`'hunter2'`]);
  });

  it('follows values and fields through variables, constants objects and templates', () => {
    expect(lines(inTest(`
  const creds = { user: 'admin', pw: 'hunter2' };
  const field = page.getByLabel('Password');
  await field.fill(creds.pw);
  const secretValue = \`hunter\${2}\`;
  await page.getByTestId('secret').fill(secretValue);`))).toEqual([5, 8]);
  });

  it('follows page aliases, popups, computed members and page objects with this.page', () => {
    const code = `import { test, type Page } from '@playwright/test';

class LoginPage {
  readonly passwordField;
  constructor(private readonly page: Page) {
    this.passwordField = this.page.getByTestId('login-password');
  }
  async logIn(user: string, typed: string) {
    await this.passwordField.fill(typed);
  }
}

async function fillField(field: ReturnType<Page['getByTestId']>, value: string) {
  await field.fill(value);
}

test('evasions', async ({ page }) => {
  const p = page;
  await p.getByLabel('Password').fill('one');
  const popupPromise = page.waitForEvent('popup');
  const popup = await popupPromise;
  await popup.getByLabel('Password')['fill']('two');
  await new LoginPage(page).logIn('admin', 'three');
  await fillField(page.getByTestId('email'), 'a@b.c');
  await fillField(page.getByTestId('password'), 'four');
});
`;
    expect(lines(code)).toEqual([19, 22, 23, 25]);
  });

  it('takes secret names and field patterns from the options', () => {
    const code = inTest(`
  const passcode = '0000';
  const password = 'hunter2';
  await page.getByTestId('otp').fill('123456');`);
    expect(lines(code, { secret_names: ['passcode'], field_patterns: ['otp'] })).toEqual([5, 7]);
  });

  it('human suites: a label held by a secret-sounding name, and a negative test’s deliberately wrong credential, are not secrets', () => {
    const code = `import { test, expect } from '@playwright/test';

const form = { accessAuth: 'Require account', authMode: 'Single sign-on' };

test('rejects a wrong password', async ({ page }) => {
  await page.getByLabel('Password').fill('not-the-password-1');
});

test('signs in', async ({ page }) => {
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByLabel('Password').fill('hunter2');
  const token = 'Bearer abc123';
});
`;
    expect(lines(code)).toEqual([11, 12]);
  });

  it('a token the test writes into its own database before using it is test data, not a leaked secret', () => {
    const code = `import { test, expect } from '@playwright/test';
import { prisma } from '../support/db';

test('creates an order with a seeded token', async ({ request }) => {
  const token = 'seed-token-1';
  await prisma.apiToken.create({ data: { token } });
  const response = await request.post('/api/orders', { headers: { authorization: 'Bearer ' + token } });
  expect(response.ok()).toBeTruthy();
});

test('uses a token nobody created', async ({ request }) => {
  const apiToken = 'sk-live-123456';
  await request.get('/api/me', { headers: { authorization: 'Bearer ' + apiToken } });
});
`;
    expect(lines(code)).toEqual([12]);
  });

  it("the password of an account the test creates through the suite's own fixture is test data; handed to Playwright's request it still counts", () => {
    const code = `import { test, expect } from './fixtures';

test('a new customer signs in', async ({ TestDataService, LoginPage, page }) => {
  const email = 'new@example.com';
  const password = 'shopware';
  await TestDataService.createCustomer({ email, password });
  await LoginPage.passwordInput.fill(password);
  await expect(page.getByText(email)).toBeVisible();
});

test('signs in through the API', async ({ request }) => {
  const password = 'hunter2-real';
  await request.post('/api/login', { data: { email: 'admin@example.com', password } });
});

test('signs in as the admin', async ({ LoginPage }) => {
  const password = 'admin-secret';
  await LoginPage.passwordInput.fill(password);
});
`;
    expect(lines(code)).toEqual([12, 17]);
  });
  it('a password the test chooses (typed into a confirmation or new-password field) is test data wherever it is typed; one only entered is a credential, into however many fields', () => {
    const code = `import { test, expect } from '@playwright/test';

test('register', async ({ page }) => {
  await page.getByLabel('block-item-Password-Password').getByRole('textbox').fill('zidonghuaceshi123');
  await page.getByLabel('block-item-Password-Confirm').getByRole('textbox').fill('zidonghuaceshi123');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByPlaceholder('Password').fill('zidonghuaceshi123');
});

test('changes the password', async ({ page }) => {
  await page.getByLabel('Current password').fill(process.env.E2E_PASSWORD!);
  await page.getByTestId('newPassword').fill('Chosen-By-The-Test-1');
  await page.getByLabel('Password', { exact: true }).fill('Chosen-By-The-Test-1');
});

test('signs in twice as the admin', async ({ page }) => {
  await page.getByLabel('Password').fill('admin-secret');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.locator('#password').fill('admin-secret');
  await page.getByLabel('Confirm password').fill(process.env.E2E_PASSWORD!);
});
`;
    expect(lines(code)).toEqual([17, 19]);
  });

  it("a textbox named only by the block it sits in (a record's password column) is not a secret field; one named itself is", () => {
    const code = `import { test, expect } from '@playwright/test';

test('the password field is editable', async ({ page }) => {
  const field = page.getByLabel('block-item-CollectionField-general-form-general.password-password');
  await field.getByRole('textbox').fill('test112233password');
  await page.getByLabel('block-item-Password').getByRole('textbox', { name: 'Password' }).fill('named-secret-1');
  await page.getByLabel('Password').first().fill('narrowed-secret-2');
});
`;
    expect(lines(code)).toEqual([6, 7]);
  });

  it('the password of a thing the test fills into the app (an object with no user or email) is test data; tokens and account passwords stay credentials', () => {
    const code = `import { test, expect } from '@playwright/test';

const product = { name: 'Protected Product', slug: 'protected-product', password: 'password' };
const account = { email: 'admin@example.com', password: 'admin-pass-1' };
const service = { name: 'billing', apiToken: 'sk-live-9f8e7d' };
const room = { title: 'Standup', password: 'only-typed-itself' };

test('a protected product asks for its password', async ({ page }) => {
  await page.locator('#title').fill(product.name);
  await page.locator('#post_password').fill(product.password);
  await page.goto('/product/' + product.slug);
  await page.getByLabel('Password').fill('password');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByLabel('Service').fill(service.name);
  await page.getByLabel('API token').fill(service.apiToken);
  await page.getByLabel('Room password').fill(room.password);
});
`;
    expect(lines(code)).toEqual([4, 5, 6]);
  });

  it('the password a sign-up helper types is the test’s own account’s, wherever it is typed after; a shared account’s stays a credential', () => {
    // The router suite's basic-auth specs: signup() creates the account, login() signs in to it.
    const helpers = `import { test, expect } from '@playwright/test';
async function signup(page, email, password) {
  await page.goto('/signup');
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', password);
}
async function login(page, email, password) {
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', password);
}
const registerUser = async (page, password) => { await page.getByLabel('Password').fill(password); };
`;
    const own = `${helpers}
test('posts', async ({ page }) => {
  const email = \`posts-\${Date.now()}@gmail.com\`;
  await signup(page, email, 'test');
  await login(page, email, 'test');
  await registerUser(page, 'Chosen-1');
});
`;
    expect(lines(own)).toEqual([]);
    // Signing in to the suite's seeded account, with no sign-up of that password: a credential.
    const shared = `${helpers}
test('posts', async ({ page }) => {
  await login(page, 'test@gmail.com', 'test');
});
`;
    expect(lines(shared)).toEqual([14]);
    // A helper named otherwise (signIn, unregister… is not sign-up) types a credential.
    const signIn = `import { test } from '@playwright/test';
async function signIn(page, password) { await page.getByLabel('Password').fill(password); }
async function signupLink(page) { await page.getByRole('link', { name: 'Sign up' }).click(); }
test('a', async ({ page }) => { await signupLink(page); await signIn(page, 'hunter2'); });
`;
    expect(lines(signIn)).toEqual([4]);
  });

  it('a negative word run together with the secret (badpassword, wrongPass1) is a deliberately wrong one; a password merely containing such a word is not', () => {
    const code = `import { test } from '@playwright/test';

test('signs in', async ({ page }) => {
  await page.getByLabel('Password').fill('badpassword');
  await page.getByLabel('Password').fill('wrongPass1');
  await page.getByLabel('Password').fill('InvalidPwd');
  await page.getByLabel('Password').fill('badpassword-hunter2');
  await page.getByLabel('Password').fill('MyBadDog1');
  await page.getByLabel('Password').fill('passwordbad');
});
`;
    expect(lines(code)).toEqual([7, 8, 9]);
  });
});
