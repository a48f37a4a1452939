; Inno Setup 6 script: a per-user (or all-users) installer for the one-folder Windows bundle.
;
; installer/build.py runs this on Windows when ISCC.exe is on PATH, passing the values below as /D defines:
;   iscc /DAppVersion=X.Y.Z /DSourceDir=C:\src\courtroom\dist\courtroom-desktop-X.Y.Z-windows-x86_64 ^
;        /DOutputDir=C:\src\courtroom\dist installer\windows\courtroom.iss
; Without /DAppVersion the version is read from version.iss beside this file, if present (one line:
;   #define AppVersion "X.Y.Z"
; ), so a CI job can write it from courtroom_desktop.__version__ instead of passing it.
; Output: <OutputDir>\courtroom-desktop-<version>-setup.exe

#ifndef AppVersion
  #if FileExists(AddBackslash(SourcePath) + "version.iss")
    #include "version.iss"
  #else
    #error AppVersion is not defined: pass /DAppVersion=X.Y.Z or write version.iss (see the top of this file)
  #endif
#endif
#ifndef AppName
  #define AppName "Courtroom Desktop"
#endif
#ifndef AppId
  #define AppId "courtroom-desktop"
#endif
#ifndef SourceDir
  #define SourceDir AddBackslash(SourcePath) + "..\..\dist\" + AppId + "-" + AppVersion + "-windows-x86_64"
#endif
#ifndef OutputDir
  #define OutputDir AddBackslash(SourcePath) + "..\..\dist"
#endif

[Setup]
; A fixed GUID keeps upgrades and uninstall working across versions: never change it.
AppId={{6B0F3E52-6C55-4B6B-9C1E-2E4D7A3C9B41}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher={#AppName}
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
; Installs for the current user without elevation; the dialog offers all users (elevated) instead.
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir={#OutputDir}
OutputBaseFilename={#AppId}-{#AppVersion}-setup
SetupIconFile={#SourceDir}\{#AppId}.ico
UninstallDisplayIcon={app}\courtroom.exe
Compression=lzma2/ultra64
SolidCompression=yes
LZMANumBlockThreads=4
WizardStyle=modern
ChangesEnvironment=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked
Name: "addtopath"; Description: "Add the courtroom-cli command to PATH"; GroupDescription: "Command line:"; Flags: unchecked

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\{#AppName}"; Filename: "{app}\courtroom.exe"
Name: "{group}\{cm:UninstallProgram,{#AppName}}"; Filename: "{uninstallexe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\courtroom.exe"; Tasks: desktopicon

[Registry]
Root: HKCU; Subkey: "Environment"; ValueType: expandsz; ValueName: "Path"; ValueData: "{olddata};{app}"; \
  Tasks: addtopath; Check: NeedsAddPath(ExpandConstant('{app}'))

[Run]
Filename: "{app}\courtroom.exe"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[Code]
function NeedsAddPath(Dir: string): Boolean;
var
  Current: string;
begin
  if not RegQueryStringValue(HKEY_CURRENT_USER, 'Environment', 'Path', Current) then
  begin
    Result := True;
    exit;
  end;
  Result := Pos(';' + Uppercase(Dir) + ';', ';' + Uppercase(Current) + ';') = 0;
end;
