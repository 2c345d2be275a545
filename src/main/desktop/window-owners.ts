/**
 * Apps whose windows never show "the file you are in", whatever their title says: browsers
 * (a page sets its own title — `credentials.json - Google Chrome`, or one that copies VS
 * Code's), mail, chat, file managers, office suites, document viewers.
 *
 * Known by the window's owner as get-windows reports it — the window class (WM_CLASS) on
 * X11, the app's name and bundle id on macOS, the executable everywhere — never by the
 * title, which is exactly what such an app lets anyone set. Terminals are not listed: they
 * host vim and `emacs -nw`, whose titles name the file. Pure: the owner in, a name out.
 */

/** The app that owns a window, as get-windows gives it. */
export interface WindowOwner {
  /** X11: the window class ("Google-chrome"); macOS: the app's name; Windows: the executable's description. */
  name: string;
  /** The executable ("/usr/lib/chromium/chromium", "C:\…\chrome.exe"), when known. */
  path?: string;
  /** macOS: the bundle id ("com.google.Chrome"). */
  bundleId?: string;
}

interface NonEditor {
  /** The app, by the name users know it. */
  app: string;
  /** Matches the lowercased window class, app name or executable name (without `.exe`). */
  names: RegExp;
  /** Matches the lowercased macOS bundle id. */
  bundleIds?: RegExp;
}

const NON_EDITORS: readonly NonEditor[] = [
  // Browsers. Chrome's executable is `chrome` on Linux and Windows; Chromium's too on Windows.
  { app: 'Google Chrome', names: /^(?:google[- ]chrome(?:[- ](?:stable|beta|dev|unstable|canary))?|chrome)$/, bundleIds: /^com\.google\.chrome(?:\.|$)/ },
  { app: 'Chromium', names: /^chromium(?:-browser)?$/, bundleIds: /^org\.chromium\.chromium$/ },
  { app: 'Firefox', names: /^(?:firefox(?:[-_ ].*)?|firefox-bin|mozilla firefox|librewolf|waterfox|floorp|zen(?:-browser)?|tor browser)$/, bundleIds: /^org\.mozilla\.(?:firefox|nightly)|^io\.gitlab\.librewolf|^app\.zen-browser/ },
  { app: 'Safari', names: /^safari(?: technology preview)?$/, bundleIds: /^com\.apple\.safari/ },
  { app: 'Microsoft Edge', names: /^(?:microsoft[- ]edge(?:[- ](?:stable|beta|dev|canary))?|msedge)$/, bundleIds: /^com\.microsoft\.edgemac/ },
  { app: 'Brave', names: /^brave(?:[- ]browser)?(?:[- ](?:beta|nightly))?$/, bundleIds: /^com\.brave\.browser/ },
  { app: 'Opera', names: /^opera(?: gx| internet browser)?$/, bundleIds: /^com\.operasoftware\.opera/ },
  { app: 'Vivaldi', names: /^vivaldi(?:-stable|-snapshot|-bin)?$/, bundleIds: /^com\.vivaldi\.vivaldi/ },
  { app: 'Arc', names: /^arc$/, bundleIds: /^company\.thebrowser\.browser$/ },
  { app: 'GNOME Web', names: /^(?:epiphany(?:-browser)?|org\.gnome\.epiphany)$/ },
  { app: 'a browser', names: /^(?:falkon|qutebrowser|midori|konqueror|yandex(?:-browser)?)$/ },
  // Mail and chat.
  { app: 'Thunderbird', names: /^thunderbird(?:[-_ ].*)?$/, bundleIds: /^org\.mozilla\.thunderbird/ },
  { app: 'a mail app', names: /^(?:evolution|org\.gnome\.evolution|geary|org\.gnome\.geary|kmail|mailspring|microsoft outlook|outlook|olk)$/, bundleIds: /^com\.apple\.mail$|^com\.microsoft\.outlook/ },
  { app: 'Slack', names: /^slack$/, bundleIds: /^com\.tinyspeck\.slackmacgap$/ },
  { app: 'Discord', names: /^discord$/, bundleIds: /^com\.hnc\.discord$/ },
  { app: 'a chat app', names: /^(?:microsoft teams|teams|ms-teams|telegramdesktop|telegram|signal|element|zoom|whatsapp)$/, bundleIds: /^com\.microsoft\.teams|^ru\.keepcoder\.telegram|^org\.whispersystems\.signal|^us\.zoom\.xos|^com\.apple\.(?:ichat|mobilesms)$/ },
  // File managers.
  { app: 'a file manager', names: /^(?:nautilus|org\.gnome\.nautilus|dolphin|org\.kde\.dolphin|thunar|nemo|caja|pcmanfm(?:-qt)?|explorer)$/, bundleIds: /^com\.apple\.finder$/ },
  // Office suites and document viewers.
  { app: 'LibreOffice', names: /^(?:libreoffice(?:-.*)?|soffice(?:\.bin)?)$/, bundleIds: /^org\.libreoffice/ },
  { app: 'an office app', names: /^(?:winword|excel|powerpnt|microsoft (?:word|excel|powerpoint)|onlyoffice.*|desktopeditors|pages|numbers|keynote)$/, bundleIds: /^com\.microsoft\.(?:word|excel|powerpoint)$|^com\.apple\.iwork\./ },
  { app: 'a document viewer', names: /^(?:evince|org\.gnome\.evince|okular|org\.kde\.okular|acrobat|acrord32|zathura)$/, bundleIds: /^com\.apple\.preview$|^com\.adobe\.(?:acrobat|reader)/ },
];

/** The app, by name, when `owner` is a known non-editor (a browser…); null when its title may name a file. */
export function nonEditorApp(owner: WindowOwner): string | null {
  const names = [owner.name, executableName(owner.path)].map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
  const bundleId = owner.bundleId?.toLowerCase() ?? '';
  for (const candidate of NON_EDITORS) {
    if (names.some((name) => candidate.names.test(name)) || (bundleId !== '' && candidate.bundleIds?.test(bundleId))) return candidate.app;
  }
  return null;
}

/** `/opt/google/chrome/chrome` → `chrome`; `C:\…\msedge.exe` → `msedge`; macOS `…/MacOS/Google Chrome` → `Google Chrome`. */
function executableName(path: string | undefined): string {
  if (!path) return '';
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).replace(/\.exe$/i, '');
}
