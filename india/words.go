package india

import "strings"

var (
	wordsUnits = [...]string{
		"Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine",
		"Ten", "Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen",
		"Seventeen", "Eighteen", "Nineteen",
	}
	wordsTens = [...]string{
		"", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety",
	}
)

// AmountInWordsINR spells an amount of paise the way Indian invoices and
// remittance advices do, in the Indian numbering system (thousand, lakh,
// crore): 12345678 → "Rupees One Lakh Twenty-Three Thousand Four Hundred
// Fifty-Six and Seventy-Eight Paise Only". Whole rupees omit the paise part
// ("Rupees Five Hundred Only"); zero is "Rupees Zero Only"; a negative
// amount is prefixed "Minus ". Above 99 crore the count of crores is itself
// spelled in lakhs and crores ("One Thousand Crore").
func AmountInWordsINR(paise int64) string {
	words := make([]string, 0, 24)
	u := uint64(paise)
	if paise < 0 {
		words = append(words, "Minus")
		u = -u // two's complement: right for math.MinInt64 too
	}
	words = append(words, "Rupees")
	if u/100 == 0 {
		words = append(words, "Zero")
	} else {
		words = appendIndianNumber(words, u/100)
	}
	if p := u % 100; p != 0 {
		words = append(words, "and", belowHundred(p), "Paise")
	}
	return strings.Join(append(words, "Only"), " ")
}

// appendIndianNumber appends the words for n > 0, grouped as crore, lakh,
// thousand and hundred.
func appendIndianNumber(words []string, n uint64) []string {
	if c := n / 1_00_00_000; c > 0 {
		words = append(appendIndianNumber(words, c), "Crore")
	}
	if l := n / 1_00_000 % 100; l > 0 {
		words = append(words, belowHundred(l), "Lakh")
	}
	if t := n / 1_000 % 100; t > 0 {
		words = append(words, belowHundred(t), "Thousand")
	}
	if h := n / 100 % 10; h > 0 {
		words = append(words, wordsUnits[h], "Hundred")
	}
	if r := n % 100; r > 0 {
		words = append(words, belowHundred(r))
	}
	return words
}

// belowHundred spells 1–99, hyphenating compounds ("Twenty-Three").
func belowHundred(n uint64) string {
	if n < 20 {
		return wordsUnits[n]
	}
	if n%10 == 0 {
		return wordsTens[n/10]
	}
	return wordsTens[n/10] + "-" + wordsUnits[n%10]
}
