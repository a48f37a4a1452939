#!/usr/bin/env bash
# Sign, notarize and staple the macOS app bundle built by installer/build.py; then pack it as a .dmg.
#
#   installer/macos/sign.sh "dist/Courtroom Desktop.app"
#
# Everything comes from the environment; what is missing is skipped with a note, never guessed:
#   CODESIGN_IDENTITY   "Developer ID Application: Name (TEAMID)" (or its SHA-1). Unset: no signing, no notarization
#                       (the app still runs after right-click > Open, or `xattr -dr com.apple.quarantine APP`).
#   APPLE_ID            the Apple ID used for notarization                 } all three set: notarize with
#   APPLE_TEAM_ID       the 10-character team id                           } `xcrun notarytool` and staple;
#   APPLE_APP_PASSWORD  an app-specific password for that Apple ID         } any unset: signed but not notarized
#   COURTROOM_DMG=0     do not build the .dmg (default: build it with hdiutil)
set -euo pipefail

APP="${1:?usage: sign.sh PATH/TO/App.app}"
[ -d "$APP" ] || { echo "no app bundle at $APP" >&2; exit 1; }
HERE=$(cd "$(dirname "$0")" && pwd)
ENTITLEMENTS="$HERE/entitlements.plist"
NAME=$(basename "$APP" .app)
VERSION=$(/usr/libexec/PlistBuddy -c "Print CFBundleShortVersionString" "$APP/Contents/Info.plist")
SLUG=$(echo "$NAME" | tr '[:upper:]' '[:lower:]' | tr ' ' '-')
DMG="$(dirname "$APP")/$SLUG-$VERSION-macos-$(uname -m).dmg"

if [ -z "${CODESIGN_IDENTITY:-}" ]; then
  echo "CODESIGN_IDENTITY is not set: not signing or notarizing $APP"
else
  echo "signing $APP as $CODESIGN_IDENTITY (hardened runtime)"
  # Inside out: every Mach-O file first (libraries, Python extension modules, Qt plugins), then the app itself.
  find "$APP/Contents" -type f \( -name '*.dylib' -o -name '*.so' -o -perm -u+x \) -print0 |
    while IFS= read -r -d '' f; do
      if file -b "$f" | grep -q 'Mach-O'; then
        codesign --force --timestamp --options runtime --entitlements "$ENTITLEMENTS" --sign "$CODESIGN_IDENTITY" "$f"
      fi
    done
  codesign --force --timestamp --options runtime --entitlements "$ENTITLEMENTS" --sign "$CODESIGN_IDENTITY" "$APP"
  codesign --verify --deep --strict --verbose=2 "$APP"
fi

if [ "${COURTROOM_DMG:-1}" != "0" ]; then
  rm -f "$DMG"
  hdiutil create -volname "$NAME" -srcfolder "$APP" -ov -format UDZO "$DMG"
  [ -n "${CODESIGN_IDENTITY:-}" ] && codesign --force --timestamp --sign "$CODESIGN_IDENTITY" "$DMG"
  echo "disk image: $DMG"
  TARGET="$DMG"
else
  TARGET="$(dirname "$APP")/$NAME.zip"
  ditto -c -k --keepParent "$APP" "$TARGET"
fi

if [ -n "${CODESIGN_IDENTITY:-}" ] && [ -n "${APPLE_ID:-}" ] && [ -n "${APPLE_TEAM_ID:-}" ] && [ -n "${APPLE_APP_PASSWORD:-}" ]; then
  echo "notarizing $TARGET (this waits for Apple, usually a few minutes)"
  xcrun notarytool submit "$TARGET" --apple-id "$APPLE_ID" --team-id "$APPLE_TEAM_ID" \
    --password "$APPLE_APP_PASSWORD" --wait
  xcrun stapler staple "$APP"
  case "$TARGET" in *.dmg) xcrun stapler staple "$TARGET" ;; esac
  spctl --assess --type execute --verbose "$APP"
elif [ -n "${CODESIGN_IDENTITY:-}" ]; then
  echo "APPLE_ID, APPLE_TEAM_ID or APPLE_APP_PASSWORD is not set: signed, not notarized"
fi
