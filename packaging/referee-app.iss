; The Windows installer of the desktop bundle (Inno Setup 6; the release workflow runs it on
; its Windows runner after PyInstaller):
;
;   iscc /DAppVersion=0.1.0 packaging\referee-app.iss       -> out\referee-app-windows-setup.exe
;
; It installs dist\referee-app\ for the current user (no administrator needed; an
; administrator may choose all users), with a Start-menu folder (the window, its uninstaller)
; and an optional desktop shortcut. Chinese when the workflow passes
; /DChineseMessages=<Inno Setup's ChineseSimplified.isl>, which Inno Setup ships only as an
; unofficial translation; English otherwise. Unsigned: docs/releasing.md says what signing
; needs.

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif

[Setup]
AppId={{6F0E7B1C-3C55-4B8E-9D7A-2A1B5E4C8D31}
AppName=双升裁判助手 referee-app
AppVersion={#AppVersion}
AppVerName=双升裁判助手 {#AppVersion}
AppPublisher=referee-app
DefaultDirName={autopf}\referee-app
DefaultGroupName=双升裁判助手
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
LicenseFile=..\LICENSE
SetupIconFile=referee-app.ico
UninstallDisplayIcon={app}\referee-app-gui.exe
OutputDir=..\out
OutputBaseFilename=referee-app-windows-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
ShowLanguageDialog=auto

[Languages]
#ifdef ChineseMessages
Name: "zh"; MessagesFile: "{#ChineseMessages}"
#endif
Name: "en"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "..\dist\referee-app\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\双升裁判助手"; Filename: "{app}\referee-app-gui.exe"; WorkingDir: "{userdocs}"
Name: "{group}\{cm:UninstallProgram,双升裁判助手}"; Filename: "{uninstallexe}"
Name: "{autodesktop}\双升裁判助手"; Filename: "{app}\referee-app-gui.exe"; WorkingDir: "{userdocs}"; Tasks: desktopicon

[Run]
Filename: "{app}\referee-app-gui.exe"; Description: "{cm:LaunchProgram,双升裁判助手}"; Flags: nowait postinstall skipifsilent
