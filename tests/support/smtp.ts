import { SMTPServer } from 'smtp-server';

export type Inbox = {
  port: number;
  messages: { to: string; raw: string }[];
  codeFor: (email: string) => Promise<string>;
  close: () => Promise<void>;
};

/**
 * A real SMTP receiver on localhost: the server under test sends its mail here. `refuse` names
 * recipients it refuses (550, quoting the address back, as real mail servers do).
 */
export async function startInbox(options: { refuse?: (address: string) => boolean } = {}): Promise<Inbox> {
  const messages: { to: string; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, done) {
      if (!options.refuse?.(address.address)) return done();
      done(
        Object.assign(new Error(`5.1.1 <${address.address}>: mailbox unavailable`), { responseCode: 550 }),
      );
    },
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString();
      });
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo) messages.push({ to: rcpt.address.toLowerCase(), raw });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    messages,
    /**
     * The newest 6-digit code mailed to an address (quoted-printable soft breaks undone); mail
     * without a code (a security alert) is passed over.
     */
    async codeFor(email: string) {
      const codeOf = (raw: string) =>
        /\b(\d{6})\b/.exec(
          raw
            .replace(/=\r?\n/g, '')
            .split(/\r?\n\r?\n/)
            .slice(1)
            .join('\n'),
        )?.[1];
      for (let i = 0; i < 100; i++) {
        const code = [...messages]
          .reverse()
          .filter((m) => m.to === email.toLowerCase())
          .map((m) => codeOf(m.raw))
          .find((found) => found !== undefined);
        if (code) return code;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no code mailed to ${email}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
