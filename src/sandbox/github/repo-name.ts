/** An owner or repository name the stand-in accepts (GitHub's characters; never `.` or `..`, which name folders). */
export function validName(s: string): boolean {
  return /^[A-Za-z0-9_.-]{1,100}$/.test(s) && s !== '.' && s !== '..';
}
