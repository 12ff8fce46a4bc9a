/**
 * A form's notice (where a code went, a change done), read out when it appears (`.form-notice` in
 * base.css). Here rather than in a feature so a screen showing one does not load that feature's
 * module graph (identity's fields bring its contract schemas and stylesheet).
 */
export function FormNotice({ message }: { message: string }) {
  return message ? (
    <p className="form-notice" role="status">
      {message}
    </p>
  ) : null;
}
