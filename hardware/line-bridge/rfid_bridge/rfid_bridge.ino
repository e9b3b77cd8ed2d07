// rfid_bridge: reads an MFRC522 (RC522) card reader over SPI and reports cards as text lines on
// the USB serial port, for the Spirit Island companion (reader family "line", 115200 baud).
//
//   UID:04497622D93881        a card was laid on the reader; repeated while it stays there
//   REMOVED:04497622D93881    that card was lifted
//
// UIDs are upper-case hex without separators. Any other line (the banner at start-up, a wiring
// warning) is ignored by the app. Wiring and upload: hardware/line-bridge/README.md.
//
// Needs the "MFRC522" library (miguelbalboa/rfid) from the Arduino Library Manager.

#include <SPI.h>
#include <MFRC522.h>

#if defined(ESP32)
// ESP32 dev boards: the default (VSPI) SPI pins are SCK 18, MISO 19, MOSI 23.
const uint8_t SS_PIN = 5;
const uint8_t RST_PIN = 22;
#else
// Uno and Nano: the hardware SPI pins are SCK 13, MISO 12, MOSI 11.
const uint8_t SS_PIN = 10;
const uint8_t RST_PIN = 9;
#endif

const unsigned long BAUD = 115200;

// Time between two looks at the reader.
const unsigned long POLL_MS = 50;

// A card that stays on the reader is reported again this often. The app counts a tag as lifted
// when it has not been reported for half a second (its default for this family), so the repeat
// must come well within that, even when a pass through loop() takes longer than POLL_MS (a
// request that no card answers waits for the MFRC522's timeout). REMOVED makes a lift known at
// once; the repeats keep a card that is still there from timing out.
const unsigned long REPEAT_MS = 200;

// Looks in a row that must fail before the card counts as lifted. One failed look is not enough:
// a card at the edge of the field, or a single garbled answer, fails now and then.
const uint8_t MISSES_BEFORE_REMOVED = 3;

// How often to check that the MFRC522 still answers on SPI.
const unsigned long HEALTH_CHECK_MS = 5000;

MFRC522 rfid(SS_PIN, RST_PIN);

MFRC522::Uid current;  // the card on the reader; valid while haveCard is true
bool haveCard = false;
uint8_t misses = 0;
unsigned long lastReported = 0;
unsigned long lastHealthCheck = 0;
bool chipMissing = false;

// Two upper-case hex digits. Serial.print(b, HEX) drops the leading zero, which would make
// UIDs ambiguous ("4A1" could be 04 A1 or 4A 01).
void printHexByte(byte value) {
  static const char DIGITS[] = "0123456789ABCDEF";
  Serial.print(DIGITS[value >> 4]);
  Serial.print(DIGITS[value & 0x0F]);
}

void printUid(const __FlashStringHelper *prefix, const MFRC522::Uid &uid) {
  Serial.print(prefix);
  for (byte i = 0; i < uid.size; i++) printHexByte(uid.uidByte[i]);
  Serial.println();
}

bool sameUid(const MFRC522::Uid &a, const MFRC522::Uid &b) {
  if (a.size != b.size) return false;
  for (byte i = 0; i < a.size; i++) {
    if (a.uidByte[i] != b.uidByte[i]) return false;
  }
  return true;
}

// The MFRC522's version register reads 0x00 or 0xFF when nothing answers on SPI.
byte chipVersion() {
  return rfid.PCD_ReadRegister(MFRC522::VersionReg);
}

bool chipAnswers(byte version) {
  return version != 0x00 && version != 0xFF;
}

void reportChip(byte version) {
  Serial.print(F("rfid_bridge: no MFRC522 answers (version register 0x"));
  printHexByte(version);
  Serial.println(F("): check the wiring and the 3.3 V supply"));
}

// Is the card we reported still on the reader? Fills rfid.uid with whatever card answered.
//
// After a card is reported it is put to sleep (HALT, see loop()). A sleeping card ignores the
// ordinary request (REQA, what PICC_IsNewCardPresent() sends), so the card we already know is
// not taken for a new one on every pass. The wake-up request (WUPA) reaches sleeping cards too:
// if our card answers it and can be selected again, it is still there. A card that was lifted
// and laid back in the meantime wakes up idle, and WUPA reaches idle cards as well, so that case
// counts as "still there" too.
bool cardAnswersWakeUp() {
  // Newer versions of the library reset these before REQA in PICC_IsNewCardPresent(), but not
  // in PICC_WakeupA(); set them here so both requests go out the same way.
  rfid.PCD_WriteRegister(MFRC522::TxModeReg, 0x00);
  rfid.PCD_WriteRegister(MFRC522::RxModeReg, 0x00);
  rfid.PCD_WriteRegister(MFRC522::ModWidthReg, 0x26);

  byte atqa[2];
  byte atqaSize = sizeof(atqa);
  MFRC522::StatusCode status = rfid.PICC_WakeupA(atqa, &atqaSize);
  // A collision means more than one card answered: selection still picks one of them.
  if (status != MFRC522::STATUS_OK && status != MFRC522::STATUS_COLLISION) return false;
  return rfid.PICC_ReadCardSerial();
}

void setup() {
  Serial.begin(BAUD);
  // Boards with USB in the chip itself (Leonardo, some ESP32s) need a moment before the port
  // is there; on an Uno or Nano this loop ends at once.
  unsigned long start = millis();
  while (!Serial && millis() - start < 2000) {
  }

  SPI.begin();
  rfid.PCD_Init();
  delay(10);  // some modules need a little time after the reset in PCD_Init()
  // Uncomment to read from a little further away, e.g. through thick card sleeves:
  // rfid.PCD_SetAntennaGain(MFRC522::RxGain_max);

  // One banner line. The app ignores it; it tells a person at a serial monitor what is running.
  byte version = chipVersion();
  Serial.print(F("rfid_bridge 1 ready, MFRC522 version 0x"));
  printHexByte(version);
  Serial.println();
  chipMissing = !chipAnswers(version);
  if (chipMissing) reportChip(version);
  lastHealthCheck = millis();
}

void checkChip(unsigned long now) {
  if (now - lastHealthCheck < HEALTH_CHECK_MS) return;
  lastHealthCheck = now;
  byte version = chipVersion();
  if (chipAnswers(version)) {
    if (chipMissing) Serial.println(F("rfid_bridge: MFRC522 answers again"));
    chipMissing = false;
    return;
  }
  if (!chipMissing) reportChip(version);  // say it once, not every five seconds
  chipMissing = true;
  // A module that dropped off (loose wire, power dip) needs its registers set up again.
  rfid.PCD_Init();
}

void loop() {
  unsigned long now = millis();
  checkChip(now);

  if (!haveCard) {
    // Only idle cards answer this request: one just laid down, or one that was lifted and came
    // back after its REMOVED line. A card still lying there after a wrong REMOVED stays asleep
    // until it is lifted and laid again; reporting it as laid a second time would be worse.
    if (rfid.PICC_IsNewCardPresent() && rfid.PICC_ReadCardSerial()) {
      current = rfid.uid;
      haveCard = true;
      misses = 0;
      printUid(F("UID:"), current);
      lastReported = now;
      rfid.PICC_HaltA();  // to sleep: the next passes use the wake-up request
    }
  } else if (cardAnswersWakeUp()) {
    if (sameUid(rfid.uid, current)) {
      misses = 0;
      if (now - lastReported >= REPEAT_MS) {
        printUid(F("UID:"), current);
        lastReported = now;
      }
    } else {
      // Another card answered: ours was swapped for it. This sketch follows one card at a time;
      // with two cards on the reader at once it may switch between them.
      printUid(F("REMOVED:"), current);
      current = rfid.uid;
      misses = 0;
      printUid(F("UID:"), current);
      lastReported = now;
    }
    rfid.PICC_HaltA();
  } else if (++misses >= MISSES_BEFORE_REMOVED) {
    // The MFRC522 is known to miss cards now and then, which is why several misses are needed.
    // Should this REMOVED line be lost on the way, the app's own timeout covers it: the card is
    // no longer repeated, so the app counts it as lifted half a second later.
    printUid(F("REMOVED:"), current);
    haveCard = false;
    misses = 0;
  }

  delay(POLL_MS);
}
